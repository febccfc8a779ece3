CREATE TABLE "moderation_items" (
	"target_kind" text NOT NULL,
	"target_id" uuid NOT NULL,
	"open_reports" integer DEFAULT 0 NOT NULL,
	"first_open_at" timestamp with time zone,
	CONSTRAINT "moderation_items_target_kind_target_id_pk" PRIMARY KEY("target_kind","target_id")
);
--> statement-breakpoint
CREATE INDEX "moderation_items_queue_idx" ON "moderation_items" USING btree ("first_open_at","target_kind","target_id") WHERE open_reports > 0;--> statement-breakpoint
-- Keeps moderation_items in the transaction that files or resolves a report.
CREATE FUNCTION reports_keep_items() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.status = 'open' THEN
      INSERT INTO moderation_items AS i (target_kind, target_id, open_reports, first_open_at)
      VALUES (NEW.target_kind, NEW.target_id, 1, NEW.created_at)
      ON CONFLICT (target_kind, target_id) DO UPDATE
        SET open_reports = i.open_reports + 1,
            first_open_at = LEAST(COALESCE(i.first_open_at, EXCLUDED.first_open_at), EXCLUDED.first_open_at);
    END IF;
    RETURN NULL;
  END IF;
  IF OLD.status = 'open' AND (TG_OP = 'DELETE' OR NEW.status <> 'open') THEN
    UPDATE moderation_items SET
      open_reports = GREATEST(open_reports - 1, 0),
      first_open_at = (
        SELECT min(r.created_at) FROM reports r
        WHERE r.target_kind = OLD.target_kind AND r.target_id = OLD.target_id AND r.status = 'open' AND r.id <> OLD.id)
    WHERE target_kind = OLD.target_kind AND target_id = OLD.target_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER reports_keep_items AFTER INSERT OR UPDATE OF status OR DELETE ON reports
  FOR EACH ROW EXECUTE FUNCTION reports_keep_items();
--> statement-breakpoint
INSERT INTO moderation_items (target_kind, target_id, open_reports, first_open_at)
  SELECT target_kind, target_id, count(*)::int, min(created_at) FROM reports WHERE status = 'open' GROUP BY 1, 2;
