import { describeNotification } from "#shared/notification-text.ts";
import { type NotificationKind, TOPICS, topicOf } from "#shared/schemas/notifications.ts";
import type { Deps } from "../core/deps.ts";
import { mailtoOf, notificationMail, unsubscribeHeaders } from "./mails.ts";
import { notificationLockKeys, notifyStatement, withdrawStatement } from "./queries.ts";
import { unsubscribePath, unsubscribeToken } from "./unsubscribe.ts";

/** The bus channel on which an instance hears that someone's notifications changed (live.ts). */
export const NOTIFICATIONS_CHANNEL = "penchain:notifications";
export type NotificationsChanged = { users: string[] } | { newPost: string };

export interface NotificationEvent {
  kind: Exclude<NotificationKind, "new_post">;
  recipientId: string;
  /** Who did it; null: the site itself (a post went out, a payment settled). */
  actorId: string | null;
  postId?: string | null;
  paymentId?: string | null;
  /** Events with the same key (per user and kind) are one entry; by default, per post and UTC day. */
  group?: string;
}

const utcDay = () => new Date().toISOString().slice(0, 10);

/** Where a notification takes its reader. */
function linkOf(publicUrl: string, event: NotificationEvent) {
  if (event.postId) return `${publicUrl}/posts/${event.postId}`;
  if (event.kind === "follow" && event.actorId) return `${publicUrl}/profile/${event.actorId}`;
  return `${publicUrl}/notifications`;
}

/**
 * Tells `recipientId` of an event, in one statement: the entry of its group is made or brought back to the top as
 * unread, with the actor among its people. Nobody is told of their own action, of a blocked user's, or while
 * blocked. Mailed at once when the recipient chose e-mail for its topic and their address is verified; every open
 * page of theirs hears of it (live.ts).
 */
export async function notify(deps: Pick<Deps, "db" | "config" | "mailer" | "bus" | "log">, event: NotificationEvent) {
  return withoutFailingTheWrite(deps, "notify", () => tell(deps, event));
}

/**
 * A notification is told beside a write that has already happened (a like, a follow): one that cannot be told is
 * logged, never the write's failure. A statement that still meets a deadlock (with another kind of write on the
 * same rows) tries again.
 */
async function withoutFailingTheWrite<T>(
  deps: Pick<Deps, "log">,
  what: string,
  work: () => Promise<T>,
): Promise<T | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code =
        (error as { code?: string; cause?: { code?: string } }).code ??
        (error as { cause?: { code?: string } }).cause?.code;
      if ((code === "40P01" || code === "40001") && attempt < 4) {
        deps.log.warn({ err: error, what, attempt }, "a notification met a deadlock and tries again");
        continue;
      }
      deps.log.error({ err: error, what }, "a notification could not be told");
      return null;
    }
  }
}

async function tell(deps: Pick<Deps, "db" | "config" | "mailer" | "bus">, event: NotificationEvent) {
  const topic = topicOf(event.kind);
  const actor = event.actorId ?? null;
  const [told] = await notifyStatement(deps.db, {
    ...notificationLockKeys(event.recipientId, actor),
    recipientId: event.recipientId,
    actorId: actor,
    kind: event.kind,
    postId: event.postId ?? null,
    paymentId: event.paymentId ?? null,
    group: event.group ?? `${event.postId ?? "-"}:${utcDay()}`,
    defaultDelivery: TOPICS[topic].delivery,
    topic,
  });
  if (!told) return null;
  deps.bus.publish(NOTIFICATIONS_CHANNEL, { users: [event.recipientId] } satisfies NotificationsChanged);
  const news = told.added > 0 || actor === null;
  // A moderator's decision is mailed by the moderation service itself, with how to appeal it.
  if (news && told.delivery === "email" && told.is_account_verified && topic !== "moderation") {
    const publicUrl = deps.config.publicUrl;
    const unsubscribeUrl = `${publicUrl}${unsubscribePath(event.recipientId, topic, unsubscribeToken(deps.config.jwtSecret ?? "", event.recipientId, topic))}`;
    const what = describeNotification({
      kind: event.kind,
      actor: told.actor_name,
      others: told.others,
      postTitle: told.post_title,
      amountWei: told.amount,
    });
    await deps.mailer.queue({
      to: told.email,
      ...notificationMail(told.first_name, what, linkOf(publicUrl, event), topic, unsubscribeUrl),
      headers: unsubscribeHeaders(unsubscribeUrl, mailtoOf(deps.config.mailFrom)),
    });
  }
  return told.id;
}

/**
 * Takes an actor back out of an unread notification (a like undone, an unfollow, a reward taken back): the entry
 * goes when it has nobody left, else names the newest of the others. One that was read stays as it was read.
 */
export async function withdraw(deps: Pick<Deps, "db" | "bus" | "log">, event: TakenBack) {
  return withoutFailingTheWrite(deps, "withdraw", () => takeBack(deps, event));
}

type TakenBack = { kind: NotificationEvent["kind"]; recipientId: string; actorId: string; postId?: string | null };

async function takeBack(deps: Pick<Deps, "db" | "bus">, event: TakenBack) {
  // A statement reads what was committed when it began, so one that waited its turn behind the very notification it
  // takes back (a like told just before its unlike) does not see it: one that found nothing looks once more.
  const withdrawn = (await takeBackOnce(deps, event)) || (await takeBackOnce(deps, event));
  if (withdrawn > 0) {
    deps.bus.publish(NOTIFICATIONS_CHANNEL, { users: [event.recipientId] } satisfies NotificationsChanged);
  }
  return withdrawn;
}

async function takeBackOnce(deps: Pick<Deps, "db">, event: TakenBack) {
  const [row] = await withdrawStatement(deps.db, {
    ...notificationLockKeys(event.recipientId, event.actorId),
    actorId: event.actorId,
    recipientId: event.recipientId,
    kind: event.kind,
    postId: event.postId ?? null,
  });
  return row?.withdrawn ?? 0;
}
