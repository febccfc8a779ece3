CREATE TYPE "public"."moderation_state" AS ENUM('visible', 'hidden', 'removed');--> statement-breakpoint
CREATE TYPE "public"."report_status" AS ENUM('open', 'dismissed', 'actioned');--> statement-breakpoint
CREATE TABLE "moderation_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"moderator_id" uuid,
	"target_kind" text NOT NULL,
	"target_id" uuid NOT NULL,
	"subject_id" uuid,
	"action" text NOT NULL,
	"rule_id" uuid,
	"rule" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "moderation_log" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"target_kind" text NOT NULL,
	"action" text NOT NULL,
	"rule" text NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "moderation_log_heads" (
	"day" date PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	"signature" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reporter_id" uuid,
	"remote_reporter" text,
	"target_kind" text NOT NULL,
	"target_id" uuid NOT NULL,
	"subject_id" uuid,
	"rule_id" uuid,
	"reason" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"forward" boolean DEFAULT false NOT NULL,
	"status" "report_status" DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "site_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "moderation" "moderation_state" DEFAULT 'visible' NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "moderation_reason" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "moderation" "moderation_state" DEFAULT 'visible' NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "moderation_reason" text;--> statement-breakpoint
ALTER TABLE "remote_replies" ADD COLUMN "moderation" "moderation_state" DEFAULT 'visible' NOT NULL;--> statement-breakpoint
ALTER TABLE "remote_replies" ADD COLUMN "moderation_reason" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_moderator" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_moderator_id_users_id_fk" FOREIGN KEY ("moderator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_subject_id_users_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_rule_id_site_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."site_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_subject_id_users_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_rule_id_site_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."site_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "moderation_actions_subject_idx" ON "moderation_actions" USING btree ("subject_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "reports_open_key" ON "reports" USING btree ("reporter_id","target_kind","target_id") WHERE status = 'open' and reporter_id is not null;--> statement-breakpoint
CREATE INDEX "reports_queue_idx" ON "reports" USING btree ("status","target_kind","target_id","created_at");--> statement-breakpoint
CREATE INDEX "reports_reporter_idx" ON "reports" USING btree ("reporter_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
-- The home page's promise, and spam: the rules a new site starts with (admins edit them at /rules).
INSERT INTO "site_rules" ("position", "title", "description") VALUES
	(1, 'No racism', 'Nothing that demeans people for their race, ethnicity, nationality or origin.'),
	(2, 'No unhealthy words', 'No slurs, obscenity or abuse aimed at anyone.'),
	(3, 'No spam', 'No advertising, link farms, or the same thing posted again and again.');
