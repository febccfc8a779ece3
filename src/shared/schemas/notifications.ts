import { z } from "../zod.ts";
import { userSummarySchema } from "./users.ts";

/** What a notification is about (docs/product.md, "Following, notifications and tips"). */
export const NOTIFICATION_KINDS = [
  "follow",
  "like",
  "comment",
  "reward",
  "tip",
  "published",
  "payment_confirmed",
  "payment_reorged",
  "new_post",
  "moderation",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The switches a user sets, each for one or more kinds. */
export const NOTIFICATION_TOPICS = [
  "new_post",
  "comment",
  "like",
  "follow",
  "reward",
  "published",
  "payment",
  "moderation",
] as const;
export type NotificationTopic = (typeof NOTIFICATION_TOPICS)[number];
/** The switches a user may move: a moderator's decision is always told in the app and by mail. */
export const SETTABLE_TOPICS = ["new_post", "comment", "like", "follow", "reward", "published", "payment"] as const;

export const topicOf = (kind: NotificationKind): NotificationTopic =>
  kind === "tip" ? "reward" : kind === "payment_confirmed" || kind === "payment_reorged" ? "payment" : kind;

/** In the app only, by e-mail at once, or in a daily digest. */
export const DELIVERIES = ["app", "email", "digest"] as const;
export type Delivery = (typeof DELIVERIES)[number];

/** What each switch says, and where it stands until the user moves it. */
export const TOPICS: Record<NotificationTopic, { label: string; delivery: Delivery }> = {
  new_post: { label: "New posts by authors you follow", delivery: "email" },
  comment: { label: "Comments on your posts", delivery: "email" },
  like: { label: "Likes on your posts", delivery: "app" },
  follow: { label: "New followers", delivery: "app" },
  reward: { label: "Rewards and tips to you", delivery: "email" },
  published: { label: "Your scheduled posts going out", delivery: "app" },
  payment: { label: "Your featured payments confirmed or reversed", delivery: "email" },
  // Always in the app: the moderation service mails every decision itself, with how to appeal.
  moderation: { label: "Moderators' decisions about you", delivery: "app" },
};

export const DELIVERY_LABELS: Record<Delivery, string> = {
  app: "In the app only",
  email: "E-mail at once",
  digest: "Daily digest",
};

export const notificationSchema = z.object({
  _id: z.string(),
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  /** The newest of the people it is about (none for the site's own news: a post went out, a payment). */
  actor: z.nullable(userSummarySchema),
  /** How many people it is about: "Ana and 12 others" is 13. */
  actorsCount: z.int(),
  post: z.nullable(z.object({ id: z.string(), title: z.string() })),
  /** A tip's or a payment's amount, in wei (decimal text). */
  amountWei: z.nullable(z.string()),
  read: z.boolean(),
  /** When the newest of it happened. */
  updatedAt: z.string(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const markReadSchema = z.object({
  /** Only these; none: every notification. */
  ids: z.optional(z.array(z.uuid("ids must be notification ids")).check(z.maxLength(100, "Mark at most 100 at once"))),
});

export const notificationSettingsSchema = z.object({
  settings: z.array(z.object({ topic: z.enum(NOTIFICATION_TOPICS), delivery: z.enum(DELIVERIES) })),
  /** Mail goes to verified addresses only. */
  emailVerified: z.boolean(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const updateNotificationSettingsSchema = z.object({
  settings: z
    .array(
      z.object({
        topic: z.enum(SETTABLE_TOPICS, { error: "Unknown notification kind" }),
        delivery: z.enum(DELIVERIES, { error: "Choose app, email or digest" }),
      }),
    )
    .check(z.minLength(1, "Change at least one setting"), z.maxLength(SETTABLE_TOPICS.length)),
});

/** What an unsubscribe link turns off: one topic's e-mail, or (from a digest) the daily digest. */
export const UNSUBSCRIBE_TOPICS = [...SETTABLE_TOPICS, "digest"] as const;
export type UnsubscribeTopic = (typeof UNSUBSCRIBE_TOPICS)[number];
export const INVALID_UNSUBSCRIBE = "This unsubscribe link is not valid";

/** What a one-click unsubscribe link carries: whose switch, which one, and the server's signature over both. */
export const unsubscribeSchema = z.object({
  userId: z.uuid(INVALID_UNSUBSCRIBE),
  topic: z.enum(UNSUBSCRIBE_TOPICS, { error: INVALID_UNSUBSCRIBE }),
  token: z.string().check(z.regex(/^[0-9a-f]{32}$/, INVALID_UNSUBSCRIBE)),
});
export type UnsubscribeInput = z.infer<typeof unsubscribeSchema>;

/** Undoing it: the topics the link turned off (a digest's several, vouched for by the unsubscribe's `undo`). */
export const resubscribeSchema = z.extend(unsubscribeSchema, {
  topics: z.optional(z.array(z.enum(NOTIFICATION_TOPICS)).check(z.maxLength(NOTIFICATION_TOPICS.length))),
  undo: z.optional(z.string().check(z.regex(/^[0-9a-f]{32}$/, INVALID_UNSUBSCRIBE))),
});

export const unsubscribeResultSchema = z.object({
  /** What was turned off, in words. */
  label: z.string(),
  /** The topics it changed, and where they stand now. */
  topics: z.array(z.enum(NOTIFICATION_TOPICS)),
  delivery: z.enum(DELIVERIES),
  /** A digest's: the server's signature over the topics it turned off, which undoing it must bring back. */
  undo: z.optional(z.string()),
});
export type UnsubscribeResult = z.infer<typeof unsubscribeResultSchema>;
