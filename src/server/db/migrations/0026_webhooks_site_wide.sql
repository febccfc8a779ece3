ALTER TABLE "webhook_endpoints" ADD COLUMN "site_wide" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Admins' endpoints made before this received the site's events: they keep doing so.
UPDATE "webhook_endpoints" w SET "site_wide" = true FROM "users" u WHERE u."id" = w."user_id" AND u."is_admin";
