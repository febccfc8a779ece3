import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.ts";
import { writeBehind } from "../../infra/write-behind.ts";
import { dayOf, perPeriod, type Read } from "./read-from-request.ts";

const FLUSH_EVERY_MS = 1000;
/** Reads held while the database cannot take them; past this the oldest are dropped, with a warning. */
const MAX_PENDING = 100_000;
const HOUR_MS = 3_600_000;

/** One visitor's reads of one thing in one hour from one source and device: the unit a flush writes. */
interface Pending {
  read: Read;
  hour: string;
  views: number;
}

const rollupKey = (read: Read, hour: string) =>
  [hour, read.kind, read.targetId, read.source, read.utmSource, read.utmMedium, read.utmCampaign, read.device].join(
    "\n",
  );

/** The start of a read's hour, as the rollups key it. */
const hourOf = perPeriod(HOUR_MS, (start) => start.toISOString());

const rows = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

/**
 * Reads are recorded off the request path, like views (content/view-buffer.ts): a read is a note in memory, and once a
 * second one transaction adds them to the hourly rollups. Each person counts once a day per post, per author and for
 * the site: the day's visitor rows decide it, in the database, so two instances count exactly once between them. Only
 * published posts and active accounts count; the visitor rows of days that are over are deleted.
 */
export function createStatsRecorder(options: { db: Db; log: FastifyBaseLogger }) {
  let cleanedAt = 0;

  async function write(batch: Pending[]) {
    return options.db.transaction(async (tx) => {
      // Whose each target is; what is not public (a draft, a hidden post, a suspended account) is not counted.
      const targets = rows(
        await tx.execute(sql`
          select p.id::text as id, p.user_id::text as author from posts p
          where p.id = any(${`{${batch.filter((p) => p.read.kind === "post").map((p) => p.read.targetId)}}`}::uuid[])
            and p.status = 'published' and p.moderation in ('visible', 'limited')
          union all
          select u.id::text, u.id::text from users u
          where u.id = any(${`{${batch.filter((p) => p.read.kind === "profile").map((p) => p.read.targetId)}}`}::uuid[])
            and u.suspended_at is null and not u.is_blocked`),
      );
      const authorOf = new Map(targets.map((row) => [row.id as string, row.author as string]));
      const counted = batch.filter((item) => authorOf.has(item.read.targetId));
      if (counted.length === 0) return 0;

      const scopesOf = (item: Pending) => {
        const author = authorOf.get(item.read.targetId) as string;
        return [`${item.read.kind}:${item.read.targetId}`, author, "site"] as const;
      };
      const seen = new Map<string, { day: string; scope: string; visitor: string; lastSeen: string }>();
      for (const item of counted) {
        for (const scope of scopesOf(item)) {
          const day = dayOf(item.read.at);
          const key = `${day}|${scope}|${item.read.visitor}`;
          const lastSeen = item.read.at.toISOString();
          const known = seen.get(key);
          if (!known || known.lastSeen < lastSeen) seen.set(key, { day, scope, visitor: item.read.visitor, lastSeen });
        }
      }
      // Which of them are new today: `xmax = 0` marks a row this statement inserted rather than updated.
      const fresh = new Set(
        rows(
          await tx.execute(sql`
            insert into stats_visitors (day, scope, visitor, last_seen)
            select * from json_to_recordset(${JSON.stringify([...seen.values()].map((v) => ({ day: v.day, scope: v.scope, visitor: v.visitor, last_seen: v.lastSeen })))}::json)
              as t(day date, scope text, visitor text, last_seen timestamptz)
            on conflict (day, scope, visitor) do update set last_seen = greatest(stats_visitors.last_seen, excluded.last_seen)
            returning day::text as day, scope, visitor, (xmax = 0) as inserted`),
        )
          .filter((row) => row.inserted)
          .map((row) => `${row.day}|${row.scope}|${row.visitor}`),
      );

      const rollups = new Map<string, Record<string, string | number>>();
      for (const item of counted) {
        const { read } = item;
        const key = rollupKey(read, item.hour);
        const row = rollups.get(key) ?? {
          hour: item.hour,
          kind: read.kind,
          target_id: read.targetId,
          author_id: authorOf.get(read.targetId) as string,
          source: read.source,
          utm_source: read.utmSource,
          utm_medium: read.utmMedium,
          utm_campaign: read.utmCampaign,
          device: read.device,
          views: 0,
          visitors: 0,
          author_visitors: 0,
          site_visitors: 0,
        };
        row.views = (row.views as number) + item.views;
        const columns = ["visitors", "author_visitors", "site_visitors"] as const;
        scopesOf(item).forEach((scope, index) => {
          // A person new today counts in the first of their reads that reaches here, and only there.
          const column = columns[index] as (typeof columns)[number];
          if (fresh.delete(`${dayOf(read.at)}|${scope}|${read.visitor}`)) row[column] = (row[column] as number) + 1;
        });
        rollups.set(key, row);
      }
      const input = sql`json_to_recordset(${JSON.stringify([...rollups.values()])}::json) as t(hour timestamptz,
          kind text, target_id uuid, author_id uuid, source text, utm_source text, utm_medium text, utm_campaign text,
          device text, views int, visitors int, author_visitors int, site_visitors int)`;
      // The hourly sums, and the same per day (what periods of days and months read).
      for (const [name, unit] of [
        ["stats_rollups", "hour"],
        ["stats_daily", "day"],
      ] as const) {
        const [table, at] = [sql.raw(name), sql.raw(unit)];
        await tx.execute(sql`
          insert into ${table} (${at}, kind, target_id, author_id, source, utm_source, utm_medium, utm_campaign,
            device, views, visitors, author_visitors, site_visitors)
          select date_trunc(${unit}, t.hour, 'UTC'), kind, target_id, author_id, source,
            utm_source, utm_medium, utm_campaign, device, sum(views), sum(visitors), sum(author_visitors), sum(site_visitors)
          from ${input}
          group by 1, 2, 3, 4, 5, 6, 7, 8, 9
          on conflict (${at}, kind, target_id, source, utm_source, utm_medium, utm_campaign, device) do update set
            views = ${table}.views + excluded.views,
            visitors = ${table}.visitors + excluded.visitors,
            author_visitors = ${table}.author_visitors + excluded.author_visitors,
            site_visitors = ${table}.site_visitors + excluded.site_visitors`);
      }
      return counted.length;
    });
  }

  /** Yesterday's rows stay (a reader at midnight is still reading now); older days go. */
  async function forgetOldDays() {
    if (Date.now() - cleanedAt < HOUR_MS) return;
    cleanedAt = Date.now();
    await options.db.execute(sql`delete from stats_visitors where day < (now() at time zone 'UTC')::date - 1`);
  }

  const notes = writeBehind<Pending>({
    everyMs: FLUSH_EVERY_MS,
    max: MAX_PENDING,
    write: async (batch) => {
      const written = await write(batch);
      await forgetOldDays();
      return written;
    },
    // Added to what arrived meanwhile.
    giveBack: (failed, meanwhile) => (meanwhile ? { ...meanwhile, views: meanwhile.views + failed.views } : failed),
    log: options.log,
    what: "reading stats",
  });

  const recorder = {
    /** Notes a read (readOf made it); written within a second. */
    record(read: Read) {
      const hour = hourOf(read.at);
      const key = `${rollupKey(read, hour)}\n${read.visitor}`;
      const pending = notes.pending();
      const known = pending.get(key);
      if (known) known.views += 1;
      else if (pending.size < MAX_PENDING) pending.set(key, { read, hour, views: 1 });
    },
    /** Writes what is pending (one flush at a time); resolves with how many visitors' reads were counted. */
    flush: notes.flush,
    start: notes.start,
    close: notes.close,
  };
  return recorder;
}
export type StatsRecorder = ReturnType<typeof createStatsRecorder>;
