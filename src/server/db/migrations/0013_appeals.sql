ALTER TABLE "moderation_actions" ADD COLUMN "appeal_text" text;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD COLUMN "appealed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD COLUMN "appeal_outcome" text;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD COLUMN "appeal_decided_by" uuid;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_appeal_decided_by_users_id_fk" FOREIGN KEY ("appeal_decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "moderation_actions_appeals_idx" ON "moderation_actions" USING btree ("appealed_at") WHERE appeal_text is not null and appeal_outcome is null;