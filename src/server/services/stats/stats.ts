import { eq, type SQL, sql } from "drizzle-orm";
import { type Interval, MAX_BUCKETS, type Stats, type StatsQuery } from "#shared/schemas/stats.ts";
import { posts } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { csvField } from "../../infra/csv.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { METRICS, type Period, readingNowSql, rollupTable, type Scope, scopeKey, visitorsColumn } from "./queries.ts";

const DAY_MS = 86_400_000;
const TOP = 10;
/** A featured post's views are compared over this long before and after its fee was paid. */
const FEATURED_WINDOW = "7 days";

type Db = Deps["db"];
const rowsOf = async <T>(db: Db, query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/** The start of the bucket that holds `at`, in UTC. */
function truncate(at: Date, interval: Interval) {
  const d = new Date(at);
  if (interval === "month") return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  if (interval === "day") return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  return new Date(Math.floor(d.getTime() / 3_600_000) * 3_600_000);
}
function next(at: Date, interval: Interval) {
  if (interval === "month") return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return new Date(at.getTime() + (interval === "day" ? DAY_MS : 3_600_000));
}
/** A date alone (`YYYY-MM-DD`) means that whole day: as `to`, the period ends at the next midnight. */
const parse = (value: string, end: boolean) =>
  value.length === 10 ? new Date(Date.parse(`${value}T00:00:00Z`) + (end ? DAY_MS : 0)) : new Date(value);

/** The period asked for: by default the last 30 days in days; refused when backwards or with too many buckets. */
export function periodOf(query: StatsQuery, now = new Date()): Period & { buckets: Date[] } {
  const interval = query.interval ?? "day";
  const to = query.to ? parse(query.to, true) : now;
  const asked = query.from ? parse(query.from, false) : new Date(to.getTime() - 30 * DAY_MS);
  // Days and months are read from daily sums: such a period starts at its first day's midnight.
  const from = interval === "hour" ? asked : truncate(asked, "day");
  if (!(from < to)) throw new HttpError(400, "The period must start before it ends");
  const buckets: Date[] = [];
  for (let at = truncate(from, interval); at < to; at = next(at, interval)) {
    buckets.push(at);
    if (buckets.length > MAX_BUCKETS[interval]) {
      throw new HttpError(400, `At most ${MAX_BUCKETS[interval]} ${interval}s at a time: choose a longer interval`);
    }
  }
  return { from, to, interval, buckets };
}

/** The author's own stats, or an admin's look at them; a post's stats are its author's and the admins'. */
async function checkPost(deps: Pick<Deps, "db">, user: AuthUser, postId: string) {
  const [post] = await deps.db.select({ userId: posts.userId }).from(posts).where(eq(posts.id, postId));
  if (!post) throw new HttpError(404, "Post not found");
  if (post.userId !== user.id && !user.isAdmin) throw new HttpError(403, "Only the post's author can see its stats");
}

/** The scope's reads over the period summed per `group`, the most read first. */
function rankedSql(scope: Scope, period: Period, group: SQL, name: SQL, extra: SQL = sql`true`) {
  return sql`select ${name}, sum(r.views)::int as views, sum(${visitorsColumn(scope)})::int as visitors
      from ${rollupTable(period).from}
      where ${
        scope.kind === "author"
          ? sql`r.author_id = ${scope.id} and r.kind = 'post'`
          : scope.kind === "post"
            ? sql`r.target_id = ${scope.id} and r.kind = 'post'`
            : sql`r.kind = 'post'`
      } and ${extra}
        and ${rollupTable(period).at} >= ${period.from.toISOString()}::timestamptz
        and ${rollupTable(period).at} < ${period.to.toISOString()}::timestamptz
      group by ${group} order by views desc, 1 limit ${TOP}`;
}
const ranked = (db: Db, ...args: Parameters<typeof rankedSql>) =>
  rowsOf<{ name: string; views: number; visitors: number }>(db, rankedSql(...args));

async function featuredOf(db: Db, scope: Scope, period: Period) {
  const where =
    scope.kind === "author"
      ? sql`p.user_id = ${scope.id}`
      : scope.kind === "post"
        ? sql`p.id = ${scope.id}`
        : sql`true`;
  return rowsOf<Stats["featured"][number]>(
    db,
    sql`select p.id, p.title, to_char(f.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "featuredAt",
        coalesce((select sum(r.views) from stats_rollups r where r.target_id = p.id and r.kind = 'post'
          and r.hour >= f.at - interval '${sql.raw(FEATURED_WINDOW)}' and r.hour < date_trunc('hour', f.at)), 0)::int as "viewsBefore",
        coalesce((select sum(r.views) from stats_rollups r where r.target_id = p.id and r.kind = 'post'
          and r.hour >= date_trunc('hour', f.at) and r.hour < f.at + interval '${sql.raw(FEATURED_WINDOW)}'), 0)::int as "viewsAfter"
      from (select post_id, min(created_at) as at from payments
            where purpose = 'featured' and status <> 'reorged' and post_id is not null
              and created_at >= ${period.from.toISOString()}::timestamptz and created_at < ${period.to.toISOString()}::timestamptz
            group by post_id) f
      join posts p on p.id = f.post_id
      where ${where}
      order by f.at desc limit 20`,
  );
}

/** Every metric of the scope per bucket (the charted ones) and in total, with its total over the period before. */
async function metricsOf(db: Db, scope: Scope, period: Period & { buckets: Date[] }) {
  const length = period.to.getTime() - period.from.getTime();
  const before: Period = { ...period, from: new Date(period.from.getTime() - length), to: period.from };
  const metrics = METRICS.flatMap((metric) => {
    const [now, then] = [metric.rows(scope, period), metric.rows(scope, before)];
    return now && then ? [{ metric, now, then }] : [];
  });
  const [series, previous] = await Promise.all([
    Promise.all(metrics.map(({ now }) => rowsOf<{ bucket: string | Date; value: string }>(db, now))),
    Promise.all(
      metrics.map(({ then }) =>
        rowsOf<{ value: string }>(db, sql`select coalesce(sum(value::numeric), 0)::text as value from (${then}) m`),
      ),
    ),
  ]);
  const charted = metrics.filter(({ metric }) => metric.chart).map(({ metric }) => metric);
  const byBucket = new Map<number, Record<string, string>>(
    period.buckets.map((at) => [at.getTime(), Object.fromEntries(charted.map((metric) => [metric.key, "0"]))]),
  );
  metrics.forEach(({ metric }, index) => {
    if (!metric.chart) return;
    for (const row of series[index] ?? []) {
      const values = byBucket.get(new Date(row.bucket).getTime());
      if (values) values[metric.key] = row.value;
    }
  });
  return {
    series: charted.map(({ key, label, unit, chart }) => ({ key, label, unit, chart: chart as string })),
    points: period.buckets.map((at) => ({ at: at.toISOString(), values: byBucket.get(at.getTime()) ?? {} })),
    totals: metrics.map(({ metric: { key, label, unit } }, index) => ({
      key,
      label,
      unit,
      value: (series[index] ?? []).reduce((sum, row) => sum + BigInt(row.value), 0n).toString(),
      previous: previous[index]?.[0]?.value.replace(/\..*$/, "") ?? "0",
    })),
  };
}

/** The scope's reads ranked: top posts, sources, campaigns, devices. */
async function rankingsOf(db: Db, scope: Scope, period: Period) {
  const [topPosts, sources, campaigns, devices] = await Promise.all([
    scope.kind === "post"
      ? []
      : rowsOf<Stats["topPosts"][number]>(
          db,
          sql`select t.target_id::text as id, p.title as name, t.views, t.visitors
            from (${rankedSql(scope, period, sql`r.target_id`, sql`r.target_id`)}) t join posts p on p.id = t.target_id
            order by t.views desc, p.title`,
        ),
    ranked(db, scope, period, sql`r.source`, sql`r.source as name`),
    ranked(
      db,
      scope,
      period,
      sql`r.utm_source, r.utm_medium, r.utm_campaign`,
      sql`r.utm_source as source, r.utm_medium as medium, r.utm_campaign as name`,
      sql`(r.utm_source <> '' or r.utm_medium <> '' or r.utm_campaign <> '')`,
    ),
    ranked(db, scope, period, sql`r.device`, sql`r.device as name`),
  ]);
  return { topPosts, sources, campaigns: campaigns as Stats["campaigns"], devices };
}

/** The numbers of a scope over a period: every metric against the period before, rankings, featured posts. */
async function statsOf(deps: Pick<Deps, "db">, scope: Scope, query: StatsQuery): Promise<Stats> {
  const period = periodOf(query);
  const [metrics, rankings, featured, reading, now] = await Promise.all([
    metricsOf(deps.db, scope, period),
    rankingsOf(deps.db, scope, period),
    featuredOf(deps.db, scope, period),
    readingNow(deps, [scopeKey(scope)]),
    scope.kind === "site" ? queueNow(deps.db) : [],
  ]);
  return {
    from: period.from.toISOString(),
    to: period.to.toISOString(),
    interval: period.interval,
    ...metrics,
    ...rankings,
    featured,
    readingNow: reading.get(scopeKey(scope)) ?? 0,
    now,
  };
}

async function queueNow(db: Db) {
  const [row] = await rowsOf<{ queued: number; failing: number }>(
    db,
    sql`select count(*)::int as queued, count(*) filter (where attempts > 0)::int as failing from federation_queue`,
  );
  return [
    { key: "deliveriesQueued", label: "Fediverse deliveries queued", value: row?.queued ?? 0 },
    { key: "deliveriesFailing", label: "Fediverse deliveries failing (retrying)", value: row?.failing ?? 0 },
  ];
}

/** People reading each scope now (`site`, an author's id, `post:<id>`): read in the last 5 minutes. */
export async function readingNow(deps: Pick<Deps, "db">, scopes: string[]) {
  const rows = await rowsOf<{ scope: string; count: number }>(deps.db, readingNowSql(scopes));
  return new Map(rows.map((row) => [row.scope, row.count]));
}

export const authorStats = (deps: Pick<Deps, "db">, user: AuthUser, query: StatsQuery) =>
  statsOf(deps, { kind: "author", id: user.id }, query);

export async function postStats(deps: Pick<Deps, "db">, user: AuthUser, postId: string, query: StatsQuery) {
  await checkPost(deps, user, postId);
  return statsOf(deps, { kind: "post", id: postId }, query);
}

export const siteStats = (deps: Pick<Deps, "db">, query: StatsQuery) => statsOf(deps, { kind: "site" }, query);

/** The stats' buckets as CSV: one row per bucket, one column per charted number (ETH in wei). */
export function statsCsv(stats: Stats) {
  const header = ["period_start", ...stats.series.map((s) => (s.unit === "wei" ? `${s.key}_wei` : s.key))];
  const lines = [
    header,
    ...stats.points.map((point) => [point.at, ...stats.series.map((s) => point.values[s.key] ?? "0")]),
  ];
  return `${lines.map((line) => line.map(csvField).join(",")).join("\r\n")}\r\n`;
}
