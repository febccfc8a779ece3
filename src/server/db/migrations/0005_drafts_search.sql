CREATE TYPE "public"."post_status" AS ENUM('draft', 'scheduled', 'published');--> statement-breakpoint
DROP INDEX "posts_list_idx";--> statement-breakpoint
DROP INDEX "posts_category_list_idx";--> statement-breakpoint
DROP INDEX "posts_author_list_idx";--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "status" "post_status" DEFAULT 'published' NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "published_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "search_vector" "tsvector";--> statement-breakpoint
-- Posts so far were published when they were created.
UPDATE "posts" SET "published_at" = "created_at";--> statement-breakpoint
-- The words of a post's sanitised HTML: block ends become spaces, tags go, the entities sanitize-html writes are read.
-- \x01 and \x02 are dropped: search excerpts use them to mark matches.
CREATE FUNCTION "post_plain_text"(html text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT btrim(regexp_replace(
    replace(replace(replace(replace(replace(replace(
      regexp_replace(regexp_replace(html, '<(br|/p|/h[1-6]|/li|/blockquote)[^>]*>', ' ', 'gi'), '<[^>]*>', '', 'g'),
      '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#39;', ''''), '&nbsp;', ' '), '&amp;', '&'),
    '[\s\x01\x02]+', ' ', 'g'))
$$;--> statement-breakpoint
-- What search matches, weighted: the title most, then category and author, then the body.
CREATE FUNCTION "post_search_vector"(title text, html text, category text, author text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('english', coalesce(title, '')), 'A')
      || setweight(to_tsvector('english', coalesce(category, '')), 'B')
      || setweight(to_tsvector('english', coalesce(author, '')), 'B')
      || setweight(to_tsvector('english', post_plain_text(coalesce(html, ''))), 'D')
$$;--> statement-breakpoint
CREATE FUNCTION "posts_search_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."search_vector" := post_search_vector(NEW."title", NEW."description",
    (SELECT c."title" FROM "categories" c WHERE c."id" = NEW."category_id"),
    (SELECT u."first_name" || ' ' || u."last_name" FROM "users" u WHERE u."id" = NEW."user_id"));
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "posts_search_write" BEFORE INSERT OR UPDATE OF "title", "description", "category_id", "user_id"
  ON "posts" FOR EACH ROW EXECUTE FUNCTION "posts_search_row"();--> statement-breakpoint
-- A renamed category or author changes what their posts are found by.
CREATE FUNCTION "categories_search_rename"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "posts" p SET "search_vector" = post_search_vector(p."title", p."description", NEW."title",
    (SELECT u."first_name" || ' ' || u."last_name" FROM "users" u WHERE u."id" = p."user_id"))
  WHERE p."category_id" = NEW."id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "categories_search_rename" AFTER UPDATE OF "title" ON "categories" FOR EACH ROW
  WHEN (OLD."title" IS DISTINCT FROM NEW."title") EXECUTE FUNCTION "categories_search_rename"();--> statement-breakpoint
CREATE FUNCTION "users_search_rename"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "posts" p SET "search_vector" = post_search_vector(p."title", p."description",
    (SELECT c."title" FROM "categories" c WHERE c."id" = p."category_id"), NEW."first_name" || ' ' || NEW."last_name")
  WHERE p."user_id" = NEW."id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_search_rename" AFTER UPDATE OF "first_name", "last_name" ON "users" FOR EACH ROW
  WHEN (OLD."first_name" IS DISTINCT FROM NEW."first_name" OR OLD."last_name" IS DISTINCT FROM NEW."last_name")
  EXECUTE FUNCTION "users_search_rename"();--> statement-breakpoint
UPDATE "posts" p SET "search_vector" = post_search_vector(p."title", p."description", c."title",
  u."first_name" || ' ' || u."last_name")
FROM "categories" c, "users" u WHERE c."id" = p."category_id" AND u."id" = p."user_id";--> statement-breakpoint
CREATE INDEX "posts_published_idx" ON "posts" USING btree ("published_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE status = 'published';--> statement-breakpoint
CREATE INDEX "posts_search_idx" ON "posts" USING gin ("search_vector") WHERE status = 'published';--> statement-breakpoint
CREATE INDEX "posts_scheduled_idx" ON "posts" USING btree ("published_at") WHERE status = 'scheduled';--> statement-breakpoint
CREATE INDEX "posts_unpublished_idx" ON "posts" USING btree ("user_id","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE status <> 'published';--> statement-breakpoint
CREATE INDEX "posts_list_idx" ON "posts" USING btree ("is_featured" DESC NULLS FIRST,"published_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE status = 'published';--> statement-breakpoint
CREATE INDEX "posts_category_list_idx" ON "posts" USING btree ("category_id","is_featured" DESC NULLS FIRST,"published_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE status = 'published';--> statement-breakpoint
CREATE INDEX "posts_author_list_idx" ON "posts" USING btree ("user_id","is_featured" DESC NULLS FIRST,"published_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE status = 'published';--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_published_at" CHECK ("posts"."status" = 'draft' or "posts"."published_at" is not null);