ALTER TABLE "posts" ADD COLUMN "likes_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "dis_likes_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "comments_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "posts" SET
  "likes_count" = (SELECT count(*) FROM "reactions" r WHERE r."post_id" = "posts"."id" AND r."kind" = 'like'),
  "dis_likes_count" = (SELECT count(*) FROM "reactions" r WHERE r."post_id" = "posts"."id" AND r."kind" = 'dislike'),
  "comments_count" = (SELECT count(*) FROM "comments" c WHERE c."post_id" = "posts"."id");--> statement-breakpoint
-- Statement-level triggers with transition tables: one UPDATE per statement, however many rows it changed.
CREATE FUNCTION "reactions_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "posts" p SET "likes_count" = p."likes_count" + c.likes, "dis_likes_count" = p."dis_likes_count" + c.dislikes
  FROM (SELECT "post_id", count(*) FILTER (WHERE "kind" = 'like') AS likes,
               count(*) FILTER (WHERE "kind" = 'dislike') AS dislikes
        FROM new_rows GROUP BY "post_id") c
  WHERE p."id" = c."post_id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "reactions_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "posts" p SET "likes_count" = p."likes_count" - c.likes, "dis_likes_count" = p."dis_likes_count" - c.dislikes
  FROM (SELECT "post_id", count(*) FILTER (WHERE "kind" = 'like') AS likes,
               count(*) FILTER (WHERE "kind" = 'dislike') AS dislikes
        FROM old_rows GROUP BY "post_id") c
  WHERE p."id" = c."post_id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "reactions_count_insert" AFTER INSERT ON "reactions" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reactions_added"();--> statement-breakpoint
CREATE TRIGGER "reactions_count_update_new" AFTER UPDATE ON "reactions" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reactions_added"();--> statement-breakpoint
CREATE TRIGGER "reactions_count_update_old" AFTER UPDATE ON "reactions" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reactions_removed"();--> statement-breakpoint
CREATE TRIGGER "reactions_count_delete" AFTER DELETE ON "reactions" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reactions_removed"();--> statement-breakpoint
CREATE FUNCTION "comments_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "posts" p SET "comments_count" = p."comments_count" + c.n
  FROM (SELECT "post_id", count(*) AS n FROM new_rows GROUP BY "post_id") c WHERE p."id" = c."post_id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "comments_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "posts" p SET "comments_count" = p."comments_count" - c.n
  FROM (SELECT "post_id", count(*) AS n FROM old_rows GROUP BY "post_id") c WHERE p."id" = c."post_id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "comments_count_insert" AFTER INSERT ON "comments" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "comments_added"();--> statement-breakpoint
CREATE TRIGGER "comments_count_delete" AFTER DELETE ON "comments" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "comments_removed"();
