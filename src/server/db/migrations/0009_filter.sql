ALTER TYPE "public"."moderation_state" ADD VALUE 'held' BEFORE 'hidden';--> statement-breakpoint
CREATE TABLE "filter_terms" (
	"term" text PRIMARY KEY NOT NULL,
	"action" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
