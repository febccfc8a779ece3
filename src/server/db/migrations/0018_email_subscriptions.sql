CREATE TYPE "public"."subscription_status" AS ENUM('pending', 'active', 'unsubscribed');--> statement-breakpoint
CREATE TABLE "email_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"author_id" uuid NOT NULL,
	"email" text NOT NULL,
	"status" "subscription_status" DEFAULT 'pending' NOT NULL,
	"source" text DEFAULT 'form' NOT NULL,
	"confirm_token_hash" text,
	"confirm_sent_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"unsubscribed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriber_mailings" (
	"post_id" uuid PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_subscriptions" ADD CONSTRAINT "email_subscriptions_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriber_mailings" ADD CONSTRAINT "subscriber_mailings_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_subscriptions_author_email_key" ON "email_subscriptions" USING btree ("author_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "email_subscriptions_token_key" ON "email_subscriptions" USING btree ("confirm_token_hash");--> statement-breakpoint
CREATE INDEX "email_subscriptions_active_idx" ON "email_subscriptions" USING btree ("author_id") WHERE "email_subscriptions"."status" = 'active';