CREATE TABLE "post_revisions" (
	"post_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"canonical" jsonb NOT NULL,
	"digest" text NOT NULL,
	"previous" text,
	"published_at" timestamp with time zone NOT NULL,
	"site_document" jsonb NOT NULL,
	"site_proof" jsonb NOT NULL,
	"actor_proof" jsonb NOT NULL,
	"author_signature" text,
	"author_signer" text,
	"author_signed_at" timestamp with time zone,
	CONSTRAINT "post_revisions_post_id_revision_pk" PRIMARY KEY("post_id","revision")
);
--> statement-breakpoint
ALTER TABLE "post_revisions" ADD CONSTRAINT "post_revisions_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "post_revisions_digest_key" ON "post_revisions" USING btree ("digest");--> statement-breakpoint
CREATE UNIQUE INDEX "post_revisions_signature_key" ON "post_revisions" USING btree (lower("author_signature")) WHERE "post_revisions"."author_signature" is not null;