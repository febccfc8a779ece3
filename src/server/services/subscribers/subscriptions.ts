import crypto from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import {
  type ConfirmResult,
  INVALID_CONFIRMATION,
  INVALID_SUBSCRIPTION_LINK,
  SUBSCRIBE_SENT,
  type SubscribeInput,
  type SubscriberCounts,
  type SubscriptionLink,
  type SubscriptionState,
} from "#shared/schemas/subscriptions.ts";
import { emailSubscriptions, users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { csvField } from "../../infra/csv.ts";
import { checkLinkToken, signLink, signLinkSql } from "../../infra/link-signature.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { NOTHING_PUBLIC } from "../core/tags.ts";
import { countEvent } from "../stats/counts.ts";
import { recordEvent } from "../webhooks/events.ts";
import { confirmSubscriptionMail } from "./mails.ts";

/** How long a confirmation link works. */
const CONFIRM_TTL_MS = 7 * 24 * 60 * 60_000;
/** A pending address is sent a new link at most this often, however many times the form is sent. */
const RESEND_AFTER_MS = 10 * 60_000;

const hash = (token: string) => crypto.createHash("sha256").update(token).digest("hex");
/** A confirmation link's token (only ever in the mail) and the hash kept of it. */
export function confirmationToken() {
  const token = crypto.randomBytes(32).toString("base64url");
  return { token, tokenHash: hash(token) };
}
export const confirmationPath = (token: string) => `/subscriptions/confirm/${token}`;
const authorName = sql<string>`${users.firstName} || ' ' || ${users.lastName}`;

/** A subscriber's unsubscribe link: `/subscriptions/unsubscribe/<id>/<token>`, signed like the followers' ones. */
export const subscriptionToken = (secret: string, id: string) => signLink(secret, `subscription:${id}`);
export const subscriptionTokenSql = (secret: string, id: ReturnType<typeof sql>) =>
  signLinkSql(secret, sql`'subscription:' || ${id}::text`);
export const subscriptionUnsubscribePath = (id: string, token: string) => `/subscriptions/unsubscribe/${id}/${token}`;

async function authorOf(deps: Pick<Deps, "db">, authorId: string) {
  const [author] = await deps.db
    .select({ id: users.id, name: authorName })
    .from(users)
    .where(
      and(
        eq(users.id, authorId),
        sql`not ${users.isBlocked} and ${users.suspendedAt} is null and ${users.closedAt} is null`,
      ),
    );
  if (!author) throw new HttpError(404, "Unknown author");
  return author;
}

/**
 * "Subscribe by e-mail": the address gets a confirmation link, and nothing else until it is opened (double opt-in).
 * The answer is the same whether the address was new, waiting, subscribed or gone, so the form tells nobody who
 * reads whom; an address already subscribed is sent nothing, and a waiting one a new link at most every 10 minutes.
 */
export async function subscribe(deps: Pick<Deps, "db" | "config" | "mailer" | "changed">, input: SubscribeInput) {
  deps.changed(NOTHING_PUBLIC);
  const author = await authorOf(deps, input.authorId);
  const { token, tokenHash } = confirmationToken();
  const now = new Date();
  // One statement decides, so two quick sends of the form mail once: a new row, a row gone that comes back, or a
  // pending one whose last link is old enough; an active row is left alone.
  const [row] = await deps.db
    .insert(emailSubscriptions)
    .values({ authorId: author.id, email: input.email, confirmTokenHash: tokenHash, confirmSentAt: now })
    .onConflictDoUpdate({
      target: [emailSubscriptions.authorId, emailSubscriptions.email],
      set: { status: "pending", confirmTokenHash: tokenHash, confirmSentAt: now },
      setWhere: sql`${emailSubscriptions.status} = 'unsubscribed' or (${emailSubscriptions.status} = 'pending'
        and coalesce(${emailSubscriptions.confirmSentAt}, 'epoch') < ${new Date(now.getTime() - RESEND_AFTER_MS)})`,
    })
    .returning({ id: emailSubscriptions.id });
  if (row) {
    const link = `${deps.config.publicUrl}${confirmationPath(token)}`;
    await deps.mailer.queue({ to: input.email, ...confirmSubscriptionMail(author.name, link) });
  }
  return { message: SUBSCRIBE_SENT };
}

/** The author's webhooks hear of a subscriber, as the author (or an admin) reads them through the API. */
const subscriberEvent = (
  tx: Parameters<typeof recordEvent>[0],
  type: "subscriber.confirmed" | "subscriber.deleted",
  row: { id: string; authorId: string; email: string },
) => recordEvent(tx, { type, ownerId: row.authorId, data: () => row });

/**
 * The confirmation link: the subscription starts. Opening it again says so again; an old, unknown or replaced link
 * is refused.
 */
export async function confirmSubscription(deps: Pick<Deps, "db" | "changed">, token: string): Promise<ConfirmResult> {
  deps.changed(NOTHING_PUBLIC);
  const fresh = sql`${emailSubscriptions.confirmSentAt} > ${new Date(Date.now() - CONFIRM_TTL_MS)}`;
  const [confirmed] = await deps.db.transaction(async (tx) => {
    const rows = await tx
      .update(emailSubscriptions)
      .set({ status: "active", confirmedAt: new Date() })
      .where(and(eq(emailSubscriptions.confirmTokenHash, hash(token)), eq(emailSubscriptions.status, "pending"), fresh))
      .returning({ id: emailSubscriptions.id, authorId: emailSubscriptions.authorId, email: emailSubscriptions.email });
    for (const row of rows) await subscriberEvent(tx, "subscriber.confirmed", row);
    return rows;
  });
  if (confirmed) await countEvent(deps, confirmed.authorId, "subscribers_gained");
  const [row] = await deps.db
    .select({ authorId: emailSubscriptions.authorId, authorName, email: emailSubscriptions.email })
    .from(emailSubscriptions)
    .innerJoin(users, eq(users.id, emailSubscriptions.authorId))
    .where(and(eq(emailSubscriptions.confirmTokenHash, hash(token)), eq(emailSubscriptions.status, "active")));
  if (!row) throw new HttpError(404, INVALID_CONFIRMATION);
  return row;
}

function checkLink(deps: Pick<Deps, "config">, link: SubscriptionLink) {
  checkLinkToken(
    link.token,
    subscriptionToken(deps.config.jwtSecret ?? "", link.id),
    () => new HttpError(403, INVALID_SUBSCRIPTION_LINK),
  );
}

async function setStatus(
  deps: Pick<Deps, "db" | "config" | "changed">,
  link: SubscriptionLink,
  from: "active" | "unsubscribed",
  to: "active" | "unsubscribed",
): Promise<SubscriptionState> {
  checkLink(deps, link);
  deps.changed(NOTHING_PUBLIC);
  const [changed] = await deps.db.transaction(async (tx) => {
    const rows = await tx
      .update(emailSubscriptions)
      .set(to === "active" ? { status: to, unsubscribedAt: null } : { status: to, unsubscribedAt: new Date() })
      .where(and(eq(emailSubscriptions.id, link.id), eq(emailSubscriptions.status, from)))
      .returning({ id: emailSubscriptions.id, authorId: emailSubscriptions.authorId, email: emailSubscriptions.email });
    for (const row of rows)
      await subscriberEvent(tx, to === "active" ? "subscriber.confirmed" : "subscriber.deleted", row);
    return rows;
  });
  if (changed) await countEvent(deps, changed.authorId, to === "active" ? "subscribers_gained" : "subscribers_lost");
  const [row] = await deps.db
    .select({ authorName, email: emailSubscriptions.email, status: emailSubscriptions.status })
    .from(emailSubscriptions)
    .innerJoin(users, eq(users.id, emailSubscriptions.authorId))
    .where(eq(emailSubscriptions.id, link.id));
  // A signed link whose row is gone: the author closed their account, so nothing is sent any more either.
  if (!row) throw new HttpError(404, "This subscription no longer exists");
  return row;
}

/** The mail's unsubscribe link (no login: its signature is the proof). Using it twice changes nothing more. */
export const unsubscribeSubscriber = (deps: Pick<Deps, "db" | "config" | "changed">, link: SubscriptionLink) =>
  setStatus(deps, link, "active", "unsubscribed");

/** "Subscribe again" on that page: the same link brings it back, with no new confirmation needed. */
export const resubscribeSubscriber = (deps: Pick<Deps, "db" | "config" | "changed">, link: SubscriptionLink) =>
  setStatus(deps, link, "unsubscribed", "active");

/** Only the author (or an admin) sees who subscribed to them. */
function checkOwner(user: AuthUser, authorId: string) {
  if (user.id !== authorId && !user.isAdmin) throw new HttpError(403, "Only the author sees their subscribers");
}

export async function subscriberCounts(deps: Pick<Deps, "db">, user: AuthUser, authorId: string) {
  checkOwner(user, authorId);
  const [counts] = await deps.db
    .select({
      active: sql<number>`count(*) filter (where ${emailSubscriptions.status} = 'active')::int`,
      pending: sql<number>`count(*) filter (where ${emailSubscriptions.status} = 'pending')::int`,
    })
    .from(emailSubscriptions)
    .where(eq(emailSubscriptions.authorId, authorId));
  return (counts ?? { active: 0, pending: 0 }) satisfies SubscriberCounts;
}

/** The author's confirmed subscribers as CSV (`email,subscribed_at,source`), oldest first. */
export async function subscribersCsv(deps: Pick<Deps, "db">, user: AuthUser, authorId: string) {
  checkOwner(user, authorId);
  const rows = await deps.db
    .select({
      email: emailSubscriptions.email,
      confirmedAt: emailSubscriptions.confirmedAt,
      source: emailSubscriptions.source,
    })
    .from(emailSubscriptions)
    .where(and(eq(emailSubscriptions.authorId, authorId), eq(emailSubscriptions.status, "active")))
    .orderBy(asc(emailSubscriptions.confirmedAt), asc(emailSubscriptions.email));
  const lines = rows.map((row) =>
    [row.email, row.confirmedAt?.toISOString() ?? "", row.source].map(csvField).join(","),
  );
  return `${["email,subscribed_at,source", ...lines].join("\r\n")}\r\n`;
}
