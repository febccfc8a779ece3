-- A post's comment count is what its readers can see: comments the filter holds or a moderator hid do not count.
CREATE OR REPLACE FUNCTION "comments_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "posts" p SET "comments_count" = p."comments_count" + c.n
  FROM (SELECT "post_id", count(*) AS n FROM new_rows WHERE "moderation" = 'visible' GROUP BY "post_id") c
  WHERE p."id" = c."post_id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "comments_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "posts" p SET "comments_count" = p."comments_count" - c.n
  FROM (SELECT "post_id", count(*) AS n FROM old_rows WHERE "moderation" = 'visible' GROUP BY "post_id") c
  WHERE p."id" = c."post_id";
  RETURN NULL;
END $$;--> statement-breakpoint
-- A comment held, hidden, approved or restored moves its post's count by one.
CREATE FUNCTION "comments_moderated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "posts" p SET "comments_count" = p."comments_count" + c.n
  FROM (
    SELECT n."post_id", sum((n."moderation" = 'visible')::int - (o."moderation" = 'visible')::int) AS n
    FROM new_rows n JOIN old_rows o ON o."id" = n."id"
    WHERE n."moderation" IS DISTINCT FROM o."moderation"
    GROUP BY n."post_id") c
  WHERE p."id" = c."post_id" AND c.n <> 0;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "comments_count_update" AFTER UPDATE ON "comments" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "comments_moderated"();--> statement-breakpoint
UPDATE "posts" SET "comments_count" =
  (SELECT count(*) FROM "comments" c WHERE c."post_id" = "posts"."id" AND c."moderation" = 'visible');
