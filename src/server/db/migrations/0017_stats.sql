CREATE TABLE "stats_counts" (
	"day" date NOT NULL,
	"scope" text NOT NULL,
	"metric" text NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_counts_scope_metric_day_pk" PRIMARY KEY("scope","metric","day")
);
--> statement-breakpoint
CREATE TABLE "stats_daily" (
	"day" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"target_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"source" text NOT NULL,
	"utm_source" text NOT NULL,
	"utm_medium" text NOT NULL,
	"utm_campaign" text NOT NULL,
	"device" text NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"visitors" integer DEFAULT 0 NOT NULL,
	"author_visitors" integer DEFAULT 0 NOT NULL,
	"site_visitors" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_daily_day_kind_target_id_source_utm_source_utm_medium_utm_campaign_device_pk" PRIMARY KEY("day","kind","target_id","source","utm_source","utm_medium","utm_campaign","device")
);
--> statement-breakpoint
CREATE TABLE "stats_rollups" (
	"hour" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"target_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"source" text NOT NULL,
	"utm_source" text NOT NULL,
	"utm_medium" text NOT NULL,
	"utm_campaign" text NOT NULL,
	"device" text NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"visitors" integer DEFAULT 0 NOT NULL,
	"author_visitors" integer DEFAULT 0 NOT NULL,
	"site_visitors" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_rollups_hour_kind_target_id_source_utm_source_utm_medium_utm_campaign_device_pk" PRIMARY KEY("hour","kind","target_id","source","utm_source","utm_medium","utm_campaign","device")
);
--> statement-breakpoint
CREATE TABLE "stats_visitors" (
	"day" date NOT NULL,
	"scope" text NOT NULL,
	"visitor" text NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	CONSTRAINT "stats_visitors_day_scope_visitor_pk" PRIMARY KEY("day","scope","visitor")
);
--> statement-breakpoint
CREATE INDEX "stats_daily_author_idx" ON "stats_daily" USING btree ("author_id","day");--> statement-breakpoint
CREATE INDEX "stats_daily_target_idx" ON "stats_daily" USING btree ("target_id","day");--> statement-breakpoint
CREATE INDEX "stats_rollups_author_idx" ON "stats_rollups" USING btree ("author_id","hour");--> statement-breakpoint
CREATE INDEX "stats_rollups_target_idx" ON "stats_rollups" USING btree ("target_id","hour");--> statement-breakpoint
CREATE INDEX "stats_visitors_recent_idx" ON "stats_visitors" USING btree ("scope","last_seen");--> statement-breakpoint
-- Followers gained before counting began: each follow that still stands, on the day it was made.
INSERT INTO "stats_counts" ("day", "scope", "metric", "n")
SELECT ("created_at" AT TIME ZONE 'UTC')::date, "followee_id"::text, 'followers_gained', count(*)::int
FROM "follows" GROUP BY 1, 2;
--> statement-breakpoint
-- Every follow and unfollow counted on its day, whichever path made it (a follow, a block, an account erased).
CREATE FUNCTION stats_count_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_counts (day, scope, metric, n)
  VALUES ((now() AT TIME ZONE 'UTC')::date,
          (CASE WHEN TG_OP = 'INSERT' THEN NEW.followee_id ELSE OLD.followee_id END)::text,
          CASE WHEN TG_OP = 'INSERT' THEN 'followers_gained' ELSE 'followers_lost' END, 1)
  ON CONFLICT (scope, metric, day) DO UPDATE SET n = stats_counts.n + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER follows_stats AFTER INSERT OR DELETE ON follows FOR EACH ROW EXECUTE FUNCTION stats_count_follow();
--> statement-breakpoint
-- Followers from the fediverse likewise, for the author they follow (the site's own actor is `site`).
CREATE FUNCTION stats_count_remote_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_counts (day, scope, metric, n)
  VALUES ((now() AT TIME ZONE 'UTC')::date,
          CASE WHEN TG_OP = 'INSERT' THEN NEW.actor ELSE OLD.actor END,
          CASE WHEN TG_OP = 'INSERT' THEN 'fediverse_followers_gained' ELSE 'fediverse_followers_lost' END, 1)
  ON CONFLICT (scope, metric, day) DO UPDATE SET n = stats_counts.n + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER remote_followers_stats AFTER INSERT OR DELETE ON remote_followers FOR EACH ROW EXECUTE FUNCTION stats_count_remote_follow();
