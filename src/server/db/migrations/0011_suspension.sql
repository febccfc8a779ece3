ALTER TABLE "users" ADD COLUMN "suspended_at" timestamp with time zone;
