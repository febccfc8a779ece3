import { and, count, desc, eq } from "drizzle-orm";
import {
  ADMIN_EVENTS,
  type CreatedWebhook,
  MAX_WEBHOOK_ENDPOINTS,
  TEST_EVENT,
  type Webhook,
  type WebhookCreate,
  type WebhookDelivery,
  type WebhookEventType,
  type WebhookUpdate,
} from "#shared/schemas/webhooks.ts";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { checkInbox } from "../../infra/delivery-guard.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { NOTHING_PUBLIC } from "../core/tags.ts";
import { newSecret, sealSecret } from "./secrets.ts";

const NOT_FOUND = "Webhook not found";
type EndpointRow = typeof webhookEndpoints.$inferSelect;

export const serverSecret = (config: Deps["config"]) => config.jwtSecret ?? "";

function toWebhook(row: EndpointRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEventType[],
    paused: row.pausedAt !== null,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    disabledReason: row.disabledReason,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The site's events are an admin's to follow, with the admin's power (a session, or a token with the `admin` scope);
 * an author follows their own.
 */
function allowedEvents(siteWide: boolean, events: readonly WebhookEventType[]) {
  const adminOnly = events.filter((event) => (ADMIN_EVENTS as readonly string[]).includes(event));
  if (adminOnly.length > 0 && !siteWide)
    throw new HttpError(
      403,
      `Only admins (and their tokens with the admin scope) can subscribe to ${adminOnly.join(", ")}.`,
    );
  return [...new Set(events)];
}

/**
 * Whether an endpoint made now follows the whole site: an admin's, unless made with a token that lacks the `admin`
 * scope (a token does only what its scopes name: its endpoint hears its owner's own events).
 */
export const followsSite = (user: AuthUser, tokenScopes: readonly string[] | null) =>
  user.isAdmin && (tokenScopes === null || tokenScopes.includes("admin"));

/** An address deliveries may go to (the delivery guard checks it again, resolved, on every attempt). */
function checkTarget(deps: Pick<Deps, "config">, url: string) {
  try {
    checkInbox(url, deps.config.webhooks.allowPrivateAddress);
  } catch {
    throw new HttpError(
      400,
      deps.config.webhooks.allowPrivateAddress
        ? "A webhook needs an http(s) address"
        : "A webhook needs an https address on a public host",
    );
  }
  const parsed = new URL(url);
  if (parsed.username || parsed.password) throw new HttpError(400, "A webhook address cannot hold a user or password");
  if (
    !deps.config.webhooks.allowPrivateAddress &&
    /^(localhost|.*\.localhost|.*\.local|.*\.internal)$/i.test(parsed.hostname)
  )
    throw new HttpError(400, "A webhook needs an https address on a public host");
}

export async function createWebhook(
  deps: Pick<Deps, "db" | "config" | "changed">,
  user: AuthUser,
  input: WebhookCreate,
  siteWide = user.isAdmin,
): Promise<CreatedWebhook> {
  const events = allowedEvents(siteWide, input.events);
  checkTarget(deps, input.url);
  const [had] = await deps.db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.userId, user.id));
  if ((had?.n ?? 0) >= MAX_WEBHOOK_ENDPOINTS)
    throw new HttpError(409, `You already have ${MAX_WEBHOOK_ENDPOINTS} webhooks`);
  const secret = newSecret();
  const [row] = await deps.db
    .insert(webhookEndpoints)
    .values({
      userId: user.id,
      url: new URL(input.url).href,
      description: input.description ?? "",
      events,
      siteWide,
      secret: sealSecret(serverSecret(deps.config), secret),
    })
    .returning();
  if (!row) throw new Error("webhook was not created");
  deps.changed(NOTHING_PUBLIC);
  return { ...toWebhook(row), secret };
}

/** One of the caller's own endpoints; another user's is answered as missing. */
export async function ownEndpoint(deps: Pick<Deps, "db">, user: AuthUser, id: string): Promise<EndpointRow> {
  const [row] = await deps.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, user.id)));
  if (!row) throw new HttpError(404, NOT_FOUND);
  return row;
}

export async function listWebhooks(deps: Pick<Deps, "db">, user: AuthUser) {
  const rows = await deps.db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, user.id))
    .orderBy(desc(webhookEndpoints.createdAt))
    .limit(MAX_WEBHOOK_ENDPOINTS);
  return { items: rows.map(toWebhook) };
}

export const getWebhook = async (deps: Pick<Deps, "db">, user: AuthUser, id: string) =>
  toWebhook(await ownEndpoint(deps, user, id));

/** Events, description, pause; resuming also brings back an endpoint the server disabled. */
export async function updateWebhook(
  deps: Pick<Deps, "db" | "changed">,
  user: AuthUser,
  id: string,
  input: WebhookUpdate,
  mayFollowSite = user.isAdmin,
) {
  const endpoint = await ownEndpoint(deps, user, id);
  const [row] = await deps.db
    .update(webhookEndpoints)
    .set({
      ...(input.events ? { events: allowedEvents(endpoint.siteWide && mayFollowSite, input.events) } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.paused === true ? { pausedAt: new Date() } : {}),
      ...(input.paused === false ? { pausedAt: null, disabledAt: null, disabledReason: null, failingSince: null } : {}),
      updatedAt: new Date(),
    })
    .where(eq(webhookEndpoints.id, id))
    .returning();
  deps.changed(NOTHING_PUBLIC);
  return toWebhook(row as EndpointRow);
}

export async function deleteWebhook(deps: Pick<Deps, "db" | "changed">, user: AuthUser, id: string) {
  const row = await ownEndpoint(deps, user, id);
  await deps.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  deps.changed(NOTHING_PUBLIC);
  return toWebhook(row);
}

/** An endpoint's latest deliveries, newest first. */
export async function listDeliveries(
  deps: Pick<Deps, "db">,
  user: AuthUser,
  id: string,
): Promise<{ items: WebhookDelivery[] }> {
  await ownEndpoint(deps, user, id);
  const rows = await deps.db
    .select({ delivery: webhookDeliveries, type: webhookEvents.type })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.endpointId, id))
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit(100);
  return {
    items: rows.map(({ delivery, type }) => ({
      id: `msg_${delivery.id}`,
      event: type as WebhookDelivery["event"],
      status: delivery.status as WebhookDelivery["status"],
      attempts: delivery.attempts,
      answerCode: delivery.lastStatus,
      durationMs: delivery.lastDurationMs,
      error: delivery.lastError,
      createdAt: delivery.createdAt.toISOString(),
      deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
      nextAttemptAt: delivery.status === "pending" ? delivery.nextAttemptAt.toISOString() : null,
    })),
  };
}

/** Sends a delivery again, under the same `webhook-id` (the receiver may drop it as one it has seen). */
export async function redeliver(deps: Pick<Deps, "db" | "changed">, user: AuthUser, id: string, deliveryId: string) {
  await ownEndpoint(deps, user, id);
  const [row] = await deps.db
    .update(webhookDeliveries)
    .set({ status: "pending", nextAttemptAt: new Date(), attempts: 0 })
    .where(and(eq(webhookDeliveries.id, deliveryId.replace(/^msg_/, "")), eq(webhookDeliveries.endpointId, id)))
    .returning({ id: webhookDeliveries.id });
  if (!row) throw new HttpError(404, "Delivery not found");
  deps.changed(NOTHING_PUBLIC);
}

/** A `webhook.test` event for this endpoint alone, whatever it subscribes to. */
export async function testWebhook(deps: Pick<Deps, "db" | "changed">, user: AuthUser, id: string) {
  await ownEndpoint(deps, user, id);
  const id_ = await deps.db.transaction(async (tx) => {
    const [event] = await tx
      .insert(webhookEvents)
      .values({ type: TEST_EVENT, ownerId: user.id, data: { webhookId: id } })
      .returning({ id: webhookEvents.id });
    const [delivery] = await tx
      .insert(webhookDeliveries)
      .values({ eventId: (event as { id: string }).id, endpointId: id })
      .returning({ id: webhookDeliveries.id });
    return (delivery as { id: string }).id;
  });
  deps.changed(NOTHING_PUBLIC);
  return { id: `msg_${id_}` };
}
