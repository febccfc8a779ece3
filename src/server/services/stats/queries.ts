import { type SQL, sql } from "drizzle-orm";
import type { Interval, Unit } from "#shared/schemas/stats.ts";

/** Whose numbers: an author's (their posts and profile), one post's, or the whole site's. */
export type Scope = { kind: "author"; id: string } | { kind: "post"; id: string } | { kind: "site" };

export interface Period {
  from: Date;
  to: Date;
  interval: Interval;
}

/** One number over time: its events' time, value and rows, for the scopes it belongs to. */
export interface MetricDef {
  key: string;
  label: string;
  unit: Unit;
  /** The chart it is drawn in; absent: a total only. */
  chart?: "readers" | "audience" | "money" | "site" | "mail";
  /** `(bucket, value)` rows of the period, or null where the metric is not the scope's. */
  rows: (scope: Scope, period: Period) => SQL | null;
}

const bucket = (at: SQL, interval: Interval) =>
  sql`date_trunc(${interval}, ${at} at time zone 'UTC') at time zone 'UTC'`;

/** A metric's statement: `value` summed per bucket over the rows of `from` whose `at` is in the period. */
function summed(at: SQL, value: SQL, from: SQL, where: SQL, period: Period) {
  return sql`select ${bucket(at, period.interval)} as bucket, sum(${value})::text as value from ${from}
    where ${where} and ${at} >= ${period.from.toISOString()}::timestamptz and ${at} < ${period.to.toISOString()}::timestamptz
    group by 1`;
}

/** The posts of the scope, as a condition on `p` (a post row). */
const postsOf = (scope: Scope) =>
  scope.kind === "author" ? sql`p.user_id = ${scope.id}` : scope.kind === "post" ? sql`p.id = ${scope.id}` : sql`true`;

/** The rollups a period reads: hourly for hours, daily (each day's UTC midnight) for days and months. */
export const rollupTable = (period: Period) =>
  period.interval === "hour"
    ? { from: sql`stats_rollups r`, at: sql`r.hour` }
    : { from: sql`stats_daily r`, at: sql`r.day` };

/** The rollups of the scope's reads; `kind` one kind only. */
function rollupsOf(scope: Scope, kind?: "post" | "profile") {
  const of = kind ? sql`r.kind = ${kind}` : sql`true`;
  if (scope.kind === "author") return sql`r.author_id = ${scope.id} and ${of}`;
  if (scope.kind === "post") return sql`r.target_id = ${scope.id} and r.kind = 'post'`;
  return of;
}

/** The column counting each person once a day in the scope (services/stats/recorder.ts). */
export const visitorsColumn = (scope: Scope) =>
  scope.kind === "post" ? sql`r.visitors` : scope.kind === "author" ? sql`r.author_visitors` : sql`r.site_visitors`;

const onPosts = (table: SQL, scope: Scope, where: SQL) =>
  [sql`${table} join posts p on p.id = x.post_id`, sql`${postsOf(scope)} and ${where}`] as const;

const only = (kinds: Scope["kind"][], make: (scope: Scope, period: Period) => SQL) => (scope: Scope, period: Period) =>
  kinds.includes(scope.kind) ? make(scope, period) : null;

const counted = (scope: Scope, metric: string, period: Period) =>
  summed(
    sql`(x.day::timestamp at time zone 'UTC')`,
    sql`x.n`,
    sql`stats_counts x`,
    sql`x.scope = ${scope.kind === "author" ? scope.id : "site"} and x.metric = ${metric}`,
    period,
  );

/** Every number the stats screens show, in the order they show them. */
export const METRICS: MetricDef[] = [
  {
    key: "views",
    label: "Views",
    unit: "count",
    chart: "readers",
    rows: (scope, period) =>
      summed(rollupTable(period).at, sql`r.views`, rollupTable(period).from, rollupsOf(scope, "post"), period),
  },
  {
    key: "visitors",
    label: "Unique visitors",
    unit: "count",
    chart: "readers",
    rows: (scope, period) =>
      summed(rollupTable(period).at, visitorsColumn(scope), rollupTable(period).from, rollupsOf(scope), period),
  },
  {
    key: "profileViews",
    label: "Profile views",
    unit: "count",
    rows: only(["author", "site"], (scope, period) =>
      summed(rollupTable(period).at, sql`r.views`, rollupTable(period).from, rollupsOf(scope, "profile"), period),
    ),
  },
  {
    key: "followersGained",
    label: "Followers gained",
    unit: "count",
    chart: "audience",
    rows: only(["author"], (scope, period) => counted(scope, "followers_gained", period)),
  },
  {
    key: "followersLost",
    label: "Followers lost",
    unit: "count",
    chart: "audience",
    rows: only(["author"], (scope, period) => counted(scope, "followers_lost", period)),
  },
  {
    key: "subscribersGained",
    label: "E-mail subscribers gained",
    unit: "count",
    chart: "audience",
    rows: only(["author"], (scope, period) => counted(scope, "subscribers_gained", period)),
  },
  {
    key: "subscribersLost",
    label: "E-mail subscribers lost",
    unit: "count",
    rows: only(["author"], (scope, period) => counted(scope, "subscribers_lost", period)),
  },
  {
    key: "fediverseFollowersGained",
    label: "Fediverse followers gained",
    unit: "count",
    rows: only(["author"], (scope, period) => counted(scope, "fediverse_followers_gained", period)),
  },
  {
    key: "fediverseFollowersLost",
    label: "Fediverse followers lost",
    unit: "count",
    rows: only(["author"], (scope, period) => counted(scope, "fediverse_followers_lost", period)),
  },
  {
    key: "likes",
    label: "Likes",
    unit: "count",
    chart: "audience",
    rows: (scope, period) =>
      summed(sql`x.created_at`, sql`1`, ...onPosts(sql`reactions x`, scope, sql`x.kind = 'like'`), period),
  },
  {
    key: "comments",
    label: "Comments",
    unit: "count",
    chart: "audience",
    rows: (scope, period) =>
      summed(sql`x.created_at`, sql`1`, ...onPosts(sql`comments x`, scope, sql`x.moderation = 'visible'`), period),
  },
  {
    key: "fediverseLikes",
    label: "Fediverse likes",
    unit: "count",
    rows: (scope, period) =>
      summed(sql`x.created_at`, sql`1`, ...onPosts(sql`remote_reactions x`, scope, sql`x.kind = 'like'`), period),
  },
  {
    key: "boosts",
    label: "Fediverse boosts",
    unit: "count",
    rows: (scope, period) =>
      summed(sql`x.created_at`, sql`1`, ...onPosts(sql`remote_reactions x`, scope, sql`x.kind = 'announce'`), period),
  },
  {
    key: "replies",
    label: "Fediverse replies",
    unit: "count",
    rows: (scope, period) =>
      summed(
        sql`x.created_at`,
        sql`1`,
        ...onPosts(sql`remote_replies x`, scope, sql`x.status = 'approved' and x.moderation = 'visible'`),
        period,
      ),
  },
  {
    key: "tips",
    label: "Tips",
    unit: "wei",
    chart: "money",
    rows: (scope, period) =>
      summed(
        sql`x.created_at`,
        sql`x.amount_wei`,
        sql`payments x`,
        sql`x.purpose = 'tip' and x.status <> 'reorged' and ${
          scope.kind === "author"
            ? sql`x.recipient_id = ${scope.id}`
            : scope.kind === "post"
              ? sql`x.post_id = ${scope.id}`
              : sql`true`
        }`,
        period,
      ),
  },
  {
    key: "featuredFees",
    label: "Featured fees",
    unit: "wei",
    chart: "money",
    rows: only(["site"], (_scope, period) =>
      summed(
        sql`x.created_at`,
        sql`x.amount_wei`,
        sql`payments x`,
        sql`x.purpose = 'featured' and x.status <> 'reorged'`,
        period,
      ),
    ),
  },
  {
    key: "registrations",
    label: "Registrations",
    unit: "count",
    chart: "site",
    rows: only(["site"], (_scope, period) => summed(sql`x.created_at`, sql`1`, sql`users x`, sql`true`, period)),
  },
  {
    key: "postsPublished",
    label: "Posts published",
    unit: "count",
    chart: "site",
    rows: only(["site"], (_scope, period) =>
      summed(sql`x.published_at`, sql`1`, sql`posts x`, sql`x.status = 'published'`, period),
    ),
  },
  {
    key: "rewards",
    label: "Rewards given",
    unit: "count",
    chart: "site",
    rows: only(["site"], (_scope, period) => summed(sql`x.created_at`, sql`1`, sql`rewards x`, sql`true`, period)),
  },
  {
    key: "mailSent",
    label: "Mail sent",
    unit: "count",
    chart: "mail",
    rows: only(["site"], (_scope, period) =>
      summed(sql`x.sent_at`, sql`1`, sql`mail_outbox x`, sql`x.sent_at is not null`, period),
    ),
  },
  {
    key: "mailFailed",
    label: "Mail that failed (at least once)",
    unit: "count",
    chart: "mail",
    rows: only(["site"], (_scope, period) =>
      summed(sql`x.created_at`, sql`1`, sql`mail_outbox x`, sql`x.last_error is not null`, period),
    ),
  },
  {
    key: "unsubscribed",
    label: "Unsubscribed from mail",
    unit: "count",
    chart: "mail",
    rows: only(["site"], (scope, period) => counted(scope, "unsubscribed", period)),
  },
];

/** Readers in the last 5 minutes: people whose read was recorded, per scope (`site`, an author, `post:<id>`). */
export const readingNowSql = (scopes: string[]) => sql`
  select scope, count(*)::int as count from stats_visitors
  where scope = any(${`{${scopes.map((scope) => `"${scope.replace(/[^a-z0-9:-]/gi, "")}"`).join(",")}}`}::text[])
    and day >= (now() at time zone 'UTC')::date - 1 and last_seen > now() - interval '5 minutes'
  group by scope`;

export const scopeKey = (scope: Scope) =>
  scope.kind === "site" ? "site" : scope.kind === "post" ? `post:${scope.id}` : scope.id;
