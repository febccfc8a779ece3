CREATE TYPE "public"."remote_reaction_kind" AS ENUM('like', 'announce');--> statement-breakpoint
CREATE TYPE "public"."remote_reply_status" AS ENUM('pending', 'approved');--> statement-breakpoint
CREATE TABLE "approved_repliers" (
	"user_id" uuid NOT NULL,
	"actor_uri" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approved_repliers_user_id_actor_uri_pk" PRIMARY KEY("user_id","actor_uri")
);
--> statement-breakpoint
CREATE TABLE "blocked_domains" (
	"domain" text PRIMARY KEY NOT NULL,
	"blocked_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "federation_keys" (
	"actor" text NOT NULL,
	"algorithm" text NOT NULL,
	"private_key" jsonb NOT NULL,
	"public_key" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "federation_keys_actor_algorithm_pk" PRIMARY KEY("actor","algorithm")
);
--> statement-breakpoint
CREATE TABLE "federation_kv" (
	"key" text[] PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "federation_queue" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "federation_queue_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"message" jsonb NOT NULL,
	"ordering_key" text,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "handle_aliases" (
	"handle" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "remote_followers" (
	"actor" text NOT NULL,
	"follower_uri" text NOT NULL,
	"inbox" text NOT NULL,
	"shared_inbox" text,
	"domain" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "remote_followers_actor_follower_uri_pk" PRIMARY KEY("actor","follower_uri")
);
--> statement-breakpoint
CREATE TABLE "remote_reactions" (
	"post_id" uuid NOT NULL,
	"actor_uri" text NOT NULL,
	"kind" "remote_reaction_kind" NOT NULL,
	"domain" text NOT NULL,
	"activity_uri" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "remote_reactions_post_id_actor_uri_kind_pk" PRIMARY KEY("post_id","actor_uri","kind")
);
--> statement-breakpoint
CREATE TABLE "remote_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"post_id" uuid NOT NULL,
	"uri" text NOT NULL,
	"actor_uri" text NOT NULL,
	"domain" text NOT NULL,
	"author_name" text NOT NULL,
	"author_handle" text NOT NULL,
	"author_avatar" text,
	"url" text,
	"content" text NOT NULL,
	"status" "remote_reply_status" NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "handle" text;--> statement-breakpoint
-- Existing users get a handle from their name, as registration derives one (src/shared/handles.ts): accents
-- dropped, lower case, other characters as one "-"; "user" when nothing is left; a name taken earlier (or a reserved
-- one: RESERVED_HANDLES) gets a part of the user's id after it.
WITH stems AS (
	SELECT "id", "created_at", left(coalesce(nullif(trim(both '-' FROM regexp_replace(
		regexp_replace(normalize(lower("first_name" || '-' || "last_name"), NFKD), '[\u0300-\u036f]', '', 'g'),
		'[^a-z0-9_]+', '-', 'g')), ''), 'user'), 22) AS "stem"
	FROM "users"
), numbered AS (
	SELECT "id", "stem", row_number() OVER (PARTITION BY "stem" ORDER BY "created_at", "id") AS "n" FROM stems
)
UPDATE "users" SET "handle" = CASE
	WHEN numbered."n" = 1 AND length(numbered."stem") >= 3 AND numbered."stem" NOT IN ('blog', 'admin', 'administrator', 'root', 'support', 'penchain') THEN numbered."stem"
	ELSE numbered."stem" || '-' || left(replace("users"."id"::text, '-', ''), 7)
END
FROM numbered WHERE numbered."id" = "users"."id";--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "handle" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "approved_repliers" ADD CONSTRAINT "approved_repliers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocked_domains" ADD CONSTRAINT "blocked_domains_blocked_by_users_id_fk" FOREIGN KEY ("blocked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handle_aliases" ADD CONSTRAINT "handle_aliases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_reactions" ADD CONSTRAINT "remote_reactions_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_replies" ADD CONSTRAINT "remote_replies_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "federation_kv_expires_idx" ON "federation_kv" USING btree ("expires_at") WHERE "federation_kv"."expires_at" is not null;--> statement-breakpoint
CREATE INDEX "federation_queue_due_idx" ON "federation_queue" USING btree ("run_at","id");--> statement-breakpoint
CREATE INDEX "federation_queue_ordering_idx" ON "federation_queue" USING btree ("ordering_key","id") WHERE "federation_queue"."ordering_key" is not null;--> statement-breakpoint
CREATE INDEX "remote_followers_domain_idx" ON "remote_followers" USING btree ("domain");--> statement-breakpoint
CREATE INDEX "remote_reactions_domain_idx" ON "remote_reactions" USING btree ("domain");--> statement-breakpoint
CREATE UNIQUE INDEX "remote_replies_uri_key" ON "remote_replies" USING btree ("uri");--> statement-breakpoint
CREATE INDEX "remote_replies_post_idx" ON "remote_replies" USING btree ("post_id","status","published_at");--> statement-breakpoint
CREATE INDEX "remote_replies_domain_idx" ON "remote_replies" USING btree ("domain");--> statement-breakpoint
CREATE UNIQUE INDEX "users_handle_key" ON "users" USING btree ("handle");