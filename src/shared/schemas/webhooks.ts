import { z } from "../zod.ts";

/** What an author may subscribe to: their own posts, comments on them, followers, subscribers, tips and fees. */
export const AUTHOR_EVENTS = [
  "post.published",
  "post.updated",
  "post.unpublished",
  "post.deleted",
  "comment.created",
  "comment.deleted",
  "follower.created",
  "follower.deleted",
  "subscriber.confirmed",
  "subscriber.deleted",
  "tip.confirmed",
  "featured.confirmed",
] as const;
/** The site's own events, for admins only (who also get every author's events above). */
export const ADMIN_EVENTS = ["user.registered", "report.created", "moderation.action"] as const;
export const WEBHOOK_EVENTS = [...AUTHOR_EVENTS, ...ADMIN_EVENTS] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** Endpoints one user may have. */
export const MAX_WEBHOOK_ENDPOINTS = 1000;
/** The longest body a delivery sends; a larger event's data is cut to its id. */
export const MAX_WEBHOOK_BODY_BYTES = 256 * 1024;

const eventsSchema = z
  .array(z.enum(WEBHOOK_EVENTS))
  .check(z.minLength(1, "Choose at least one event"), z.maxLength(WEBHOOK_EVENTS.length));
const urlSchema = z
  .string()
  .check(z.trim(), z.maxLength(2000, "The address is too long"), z.url({ error: "Enter an http(s) address" }));
const descriptionSchema = z.string().check(z.trim(), z.maxLength(500));

export const webhookCreateSchema = z.object({
  url: urlSchema,
  events: eventsSchema,
  description: z.optional(descriptionSchema),
});
export type WebhookCreate = z.infer<typeof webhookCreateSchema>;

export const webhookUpdateSchema = z.object({
  events: z.optional(eventsSchema),
  description: z.optional(descriptionSchema),
  /** true pauses; false resumes (and re-enables an endpoint the server disabled). */
  paused: z.optional(z.boolean()),
});
export type WebhookUpdate = z.infer<typeof webhookUpdateSchema>;

const time = z.iso.datetime({ offset: true });
export const webhookSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  paused: z.boolean(),
  disabledAt: z.nullable(time),
  disabledReason: z.nullable(z.string()),
  createdAt: time,
});
export type Webhook = z.infer<typeof webhookSchema>;

/** The one answer that holds the signing secret: the endpoint's creation. */
export const createdWebhookSchema = z.extend(webhookSchema, { secret: z.string() });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

export const webhookListSchema = z.object({ items: z.array(webhookSchema) });

/** What `POST /api/webhooks/{id}/test` sends. */
export const TEST_EVENT = "webhook.test";

export const webhookDeliverySchema = z.object({
  id: z.string(),
  event: z.enum([...WEBHOOK_EVENTS, TEST_EVENT]),
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.number(),
  answerCode: z.nullable(z.number()),
  durationMs: z.nullable(z.number()),
  error: z.nullable(z.string()),
  createdAt: time,
  deliveredAt: z.nullable(time),
  nextAttemptAt: z.nullable(time),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveryListSchema = z.object({ items: z.array(webhookDeliverySchema) });

export const webhookParamsSchema = z.object({ id: z.uuid("Unknown webhook") });
export const webhookDeliveryParamsSchema = z.object({
  id: z.uuid("Unknown webhook"),
  deliveryId: z.string().check(z.regex(/^msg_[0-9a-f-]{36}$/, "Unknown delivery")),
});
