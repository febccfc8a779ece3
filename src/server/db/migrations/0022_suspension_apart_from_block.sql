-- A suspension no longer sets the admin's block: it locks an account out by suspended_at alone.
UPDATE "users" SET "is_blocked" = false WHERE "suspended_at" IS NOT NULL;
