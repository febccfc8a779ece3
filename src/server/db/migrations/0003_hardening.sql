CREATE TYPE "public"."payment_status" AS ENUM('confirming', 'final', 'reorged');--> statement-breakpoint
CREATE TABLE "revoked_sessions" (
	"session_id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "block_hash" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "status" "payment_status" DEFAULT 'confirming' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "checked_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "revoked_sessions_expires_idx" ON "revoked_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "payments_confirming_idx" ON "payments" USING btree ("checked_at") WHERE "payments"."status" = 'confirming';--> statement-breakpoint
UPDATE "users" SET "email" = lower("email") WHERE "email" <> lower("email");--> statement-breakpoint
UPDATE "mail_outbox" SET "text" = '', "html" = '' WHERE "sent_at" IS NOT NULL;
