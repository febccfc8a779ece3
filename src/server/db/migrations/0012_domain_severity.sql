ALTER TABLE "blocked_domains" ADD COLUMN "severity" text DEFAULT 'suspend' NOT NULL;--> statement-breakpoint
ALTER TABLE "blocked_domains" ADD COLUMN "public_comment" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "users_suspended_idx" ON "users" USING btree ("suspended_at") WHERE suspended_at IS NOT NULL;