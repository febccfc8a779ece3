ALTER TABLE "users" ADD COLUMN "closing_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "closing_keeps_posts" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "users_closing_idx" ON "users" USING btree ("closing_at") WHERE "users"."closing_at" is not null;