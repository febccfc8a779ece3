import { and, eq, type SQL, sql } from "drizzle-orm";
import {
  INVALID_UNSUBSCRIBE,
  type NotificationTopic,
  TOPICS,
  type UnsubscribeInput,
  type UnsubscribeResult,
  type UnsubscribeTopic,
} from "#shared/schemas/notifications.ts";
import { notificationSettings } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { checkLinkToken, signLink, signLinkSql } from "../../infra/link-signature.ts";
import type { Deps } from "../core/deps.ts";
import { NOTHING_PUBLIC } from "../core/tags.ts";
import { countEvent } from "../stats/counts.ts";

/**
 * One-click unsubscribe links (RFC 8058): `/unsubscribe/<user>/<topic>/<token>`, the token signing the user and the
 * topic (`infra/link-signature.ts`). It works without logging in and turns off that one switch of that one user.
 */
const message = (userId: string, topic: UnsubscribeTopic) => `unsubscribe:${userId}:${topic}`;

export const unsubscribeToken = (secret: string, userId: string, topic: UnsubscribeTopic) =>
  signLink(secret, message(userId, topic));

/** The same token computed by the database, for mail written by one INSERT … SELECT. */
export const unsubscribeTokenSql = (secret: string, userId: SQL, topic: NotificationTopic) =>
  signLinkSql(secret, sql`'unsubscribe:' || ${userId}::text || ':' || ${topic}`);

export const unsubscribePath = (userId: string, topic: UnsubscribeTopic, token: string) =>
  `/unsubscribe/${userId}/${topic}/${token}`;

const checkSignature = (given: string | undefined, expected: string) =>
  checkLinkToken(given, expected, () => new HttpError(403, INVALID_UNSUBSCRIBE));

const checkToken = (secret: string, input: UnsubscribeInput) =>
  checkSignature(input.token, unsubscribeToken(secret, input.userId, input.topic));

/** What undoing a digest's unsubscribe must show: it brings back the topics that one turned off, no others. */
const undoToken = (secret: string, userId: string, topics: readonly NotificationTopic[]) =>
  signLink(secret, `resubscribe:${userId}:digest:${[...topics].sort().join(",")}`);

async function setDelivery(
  deps: Pick<Deps, "db" | "changed">,
  userId: string,
  topics: NotificationTopic[],
  delivery: "app" | "email" | "digest",
) {
  deps.changed(NOTHING_PUBLIC);
  if (topics.length === 0) return;
  await deps.db
    .insert(notificationSettings)
    .values(topics.map((topic) => ({ userId, topic, delivery })))
    .onConflictDoUpdate({
      target: [notificationSettings.userId, notificationSettings.topic],
      set: { delivery, updatedAt: new Date() },
    })
    .catch((error) => {
      // The user was deleted: nothing of theirs is mailed any more.
      if ((error as { code?: string }).code === "23503") return;
      throw error;
    });
}

async function digestTopics(deps: Pick<Deps, "db">, userId: string) {
  const rows = await deps.db
    .select({ topic: notificationSettings.topic })
    .from(notificationSettings)
    .where(and(eq(notificationSettings.userId, userId), eq(notificationSettings.delivery, "digest")));
  return rows.map((row) => row.topic);
}

const DIGEST_LABEL = "The daily digest of your notifications";

/** The link's switch turned off (in the app only from now on): one topic's mail, or every topic of the digest. */
export async function unsubscribe(
  deps: Pick<Deps, "db" | "config" | "changed">,
  input: UnsubscribeInput,
): Promise<UnsubscribeResult> {
  checkToken(deps.config.jwtSecret ?? "", input);
  const topics = input.topic === "digest" ? await digestTopics(deps, input.userId) : [input.topic];
  await setDelivery(deps, input.userId, topics, "app");
  await countEvent(deps, "site", "unsubscribed");
  if (input.topic !== "digest") return { label: TOPICS[input.topic].label, topics, delivery: "app" };
  const undo = undoToken(deps.config.jwtSecret ?? "", input.userId, topics);
  return { label: DIGEST_LABEL, topics, delivery: "app", undo };
}

/** Undoes it: the topics go back to e-mail at once, or (a digest's) to the digest. */
export async function resubscribe(
  deps: Pick<Deps, "db" | "config" | "changed">,
  input: UnsubscribeInput & { topics?: NotificationTopic[] | undefined; undo?: string | undefined },
): Promise<UnsubscribeResult> {
  const secret = deps.config.jwtSecret ?? "";
  checkToken(secret, input);
  const digest = input.topic === "digest";
  const topics = digest ? (input.topics ?? []) : [input.topic as NotificationTopic];
  if (digest) checkSignature(input.undo, undoToken(secret, input.userId, topics));
  const delivery = digest ? "digest" : "email";
  await setDelivery(deps, input.userId, topics, delivery);
  return { label: digest ? DIGEST_LABEL : TOPICS[input.topic as NotificationTopic].label, topics, delivery };
}
