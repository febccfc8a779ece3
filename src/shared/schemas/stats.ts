import { z } from "../zod.ts";

export const DEVICES = ["desktop", "phone", "tablet"] as const;
export type Device = (typeof DEVICES)[number];

export const INTERVALS = ["hour", "day", "month"] as const;
export type Interval = (typeof INTERVALS)[number];

/** The most buckets one answer has: 14 days of hours, two years of days, 20 years of months. */
export const MAX_BUCKETS = { hour: 14 * 24, day: 731, month: 240 } as const;

const instant = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);

/** `?from=&to=&interval=`: a range (by default the last 30 days) and its buckets (by default days). */
export const statsQuerySchema = z.object({
  from: z.optional(instant),
  to: z.optional(instant),
  interval: z._default(z.enum(INTERVALS, "interval is hour, day or month"), "day"),
});
export type StatsQuery = z.input<typeof statsQuerySchema>;

/** A read sent by the app when it shows a post or a profile (the server-rendered page counts itself). */
export const beaconSchema = z.object({
  kind: z.enum(["post", "profile"]),
  id: z.uuid(),
  /** `document.referrer` when the app opened on this page; none after a navigation inside the app. */
  referrer: z.optional(z.string().check(z.maxLength(2048))),
  /** The page's path and query, where UTM parameters are. */
  url: z.string().check(z.maxLength(4096)),
});
export type Beacon = z.infer<typeof beaconSchema>;

/** `count` (people, posts, mails) or `wei` (ETH, given in wei as a decimal string). */
export const unitSchema = z.enum(["count", "wei"]);
export type Unit = z.infer<typeof unitSchema>;

export const metricSchema = z.object({
  key: z.string(),
  label: z.string(),
  unit: unitSchema,
  /** Over the period, and over the period of the same length just before it. Decimal strings (wei can be large). */
  value: z.string(),
  previous: z.string(),
});
export type Metric = z.infer<typeof metricSchema>;

const rankSchema = z.object({ name: z.string(), views: z.number(), visitors: z.number() });

export const statsSchema = z.object({
  from: z.string(),
  to: z.string(),
  interval: z.enum(INTERVALS),
  /** What `points` carry, in order: the chart's lines. */
  series: z.array(z.object({ key: z.string(), label: z.string(), unit: unitSchema, chart: z.string() })),
  /** One per bucket, oldest first, every bucket present; values as decimal strings. */
  points: z.array(z.object({ at: z.string(), values: z.record(z.string(), z.string()) })),
  totals: z.array(metricSchema),
  topPosts: z.array(z.extend(rankSchema, { id: z.string() })),
  sources: z.array(rankSchema),
  campaigns: z.array(z.extend(rankSchema, { source: z.string(), medium: z.string() })),
  devices: z.array(rankSchema),
  /** Each featured post of the period: its views in the 7 days before and after its fee was paid. */
  featured: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      featuredAt: z.string(),
      viewsBefore: z.number(),
      viewsAfter: z.number(),
    }),
  ),
  /** Readers of these posts in the last 5 minutes (kept live on the page through the event stream). */
  readingNow: z.number(),
  /** How things stand now (the site's stats): the fediverse's queue. */
  now: z.array(z.object({ key: z.string(), label: z.string(), value: z.number() })),
});
export type Stats = z.infer<typeof statsSchema>;
