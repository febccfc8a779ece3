import { sql } from "drizzle-orm";
import { describeNotification } from "#shared/notification-text.ts";
import {
  type Delivery,
  type NotificationKind,
  type NotificationTopic,
  TOPICS,
  topicOf,
} from "#shared/schemas/notifications.ts";
import { statement } from "../../db/statement.ts";
import type { Deps } from "../deps.ts";
import { notificationMail, unsubscribeHeaders } from "./mails.ts";
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

/** The address that receives unsubscribe requests by mail: the sender's own. */
export const mailtoOf = (mailFrom: string) => /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom;

interface Told {
  id: string;
  added: number;
  email: string;
  first_name: string;
  is_account_verified: boolean;
  delivery: string;
  actor_name: string | null;
  others: number;
  post_title: string | null;
  amount: string | null;
}

/**
 * Tells `recipientId` of an event, in one statement: the entry of its group is made or brought back to the top as
 * unread, with the actor among its people. Nobody is told of their own action, of a blocked user's, or while
 * blocked. Mailed at once when the recipient chose e-mail for its topic and their address is verified; every open
 * page of theirs hears of it (live.ts).
 */
export async function notify(deps: Pick<Deps, "db" | "config" | "mailer" | "bus" | "log">, event: NotificationEvent) {
  return besideTheWrite(deps, "notify", () => tell(deps, event));
}

/**
 * The statements that tell and take back one actor's notifications to one recipient wait for each other: a CTE named
 * `in_turn` that holds a lock until the statement ends, which each of them reads before it writes (telling joins
 * it to the recipient; taking back reads its changes from it, so it waits even when it finds nothing). Without it, one
 * reader's quick likes and unlikes (a double click) deadlocked on their group's rows, and PostgreSQL finds a deadlock
 * only after a second (deadlock_timeout) while both keep their connections: twenty such clicks at once held the pool
 * long enough for other requests to be refused.
 */
const inTurn = sql`in_turn as (select pg_advisory_xact_lock(hashtext(${sql.placeholder("recipientKey")}), hashtext(${sql.placeholder("actorKey")})))`;
/** What the lock of `inTurn` is named after (its two halves are hashed into the advisory lock's two keys). */
export const turnKeys = (recipientId: string, actorId: string | null) => ({
  recipientKey: `notify:${recipientId}`,
  actorKey: actorId ?? "-",
});
type TurnKeys = ReturnType<typeof turnKeys>;

/**
 * A notification is told beside a write that has already happened (a like, a follow): one that cannot be told is
 * logged, never the write's failure. A statement that still meets a deadlock (with another kind of write on the
 * same rows) tries again.
 */
async function besideTheWrite<T>(deps: Pick<Deps, "log">, what: string, work: () => Promise<T>): Promise<T | null> {
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

/** The statement that tells: see `notify`. */
type Telling = TurnKeys & {
  recipientId: string;
  actorId: string | null;
  kind: NotificationEvent["kind"];
  postId: string | null;
  paymentId: string | null;
  group: string;
  defaultDelivery: Delivery;
  topic: NotificationTopic;
};
const telling = statement<Telling, Told>(() => {
  const actor = sql`${sql.placeholder("actorId")}::uuid`;
  return sql`
    with ${inTurn},
    recipient as (
      select u.id from users u, in_turn
      where u.id = ${sql.placeholder("recipientId")} and not u.is_blocked and u.id is distinct from ${actor}
        and (${actor} is null or exists (select 1 from users a where a.id = ${actor} and not a.is_blocked))
    ),
    note as (
      insert into notifications (user_id, kind, post_id, payment_id, group_key, last_actor_id)
      select id, ${sql.placeholder("kind")}, ${sql.placeholder("postId")}::uuid, ${sql.placeholder("paymentId")}::uuid, ${sql.placeholder("group")}, ${actor}
      from recipient
      on conflict (user_id, kind, group_key) do update set
        last_actor_id = coalesce(excluded.last_actor_id, notifications.last_actor_id),
        payment_id = coalesce(excluded.payment_id, notifications.payment_id),
        read_at = null,
        updated_at = now()
      returning id, user_id
    ),
    added as (
      insert into notification_actors (notification_id, actor_id)
      select id, ${actor} from note where ${actor} is not null
      on conflict do nothing
      returning 1
    )
    select note.id, (select count(*) from added)::int as added, u.email, u.first_name, u.is_account_verified,
      coalesce(s.delivery::text, ${sql.placeholder("defaultDelivery")}) as delivery,
      (select a.first_name || ' ' || a.last_name from users a where a.id = ${actor}) as actor_name,
      (select count(*) from notification_actors na where na.notification_id = note.id and na.actor_id <> ${actor})::int as others,
      (select p.title from posts p where p.id = ${sql.placeholder("postId")}::uuid) as post_title,
      (select pm.amount_wei::text from payments pm where pm.id = ${sql.placeholder("paymentId")}::uuid) as amount
    from note join users u on u.id = note.user_id
    left join notification_settings s on s.user_id = u.id and s.topic = ${sql.placeholder("topic")}`;
});

async function tell(deps: Pick<Deps, "db" | "config" | "mailer" | "bus">, event: NotificationEvent) {
  const topic = topicOf(event.kind);
  const actor = event.actorId ?? null;
  const [told] = await telling(deps.db, {
    ...turnKeys(event.recipientId, actor),
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
  if (news && told.delivery === "email" && told.is_account_verified) {
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
  return besideTheWrite(deps, "withdraw", () => takeBack(deps, event));
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

/** The statement that takes back: see `withdraw`. */
type TakingBack = TurnKeys & { actorId: string; recipientId: string; kind: TakenBack["kind"]; postId: string | null };
const takingBack = statement<TakingBack, { withdrawn: number }>(
  () => sql`
    with ${inTurn},
    gone as (
      delete from notification_actors a using notifications n
      where a.notification_id = n.id and a.actor_id = ${sql.placeholder("actorId")} and n.user_id = ${sql.placeholder("recipientId")}
        and n.kind = ${sql.placeholder("kind")} and n.read_at is null
        and n.post_id is not distinct from ${sql.placeholder("postId")}::uuid
      returning n.id
    ),
    emptied as (
      delete from notifications n
      where n.id in (select id from gone)
        and not exists (select 1 from notification_actors a where a.notification_id = n.id and a.actor_id <> ${sql.placeholder("actorId")})
      returning n.id
    ),
    renamed as (
      update notifications n set last_actor_id = (
        select a.actor_id from notification_actors a
        where a.notification_id = n.id and a.actor_id <> ${sql.placeholder("actorId")}
        order by a.created_at desc limit 1)
      where n.id in (select id from gone) and n.id not in (select id from emptied) and n.last_actor_id = ${sql.placeholder("actorId")}
      returning n.id
    )
    select (select count(*) from gone)::int as withdrawn from in_turn`,
);

async function takeBackOnce(deps: Pick<Deps, "db">, event: TakenBack) {
  const [row] = await takingBack(deps.db, {
    ...turnKeys(event.recipientId, event.actorId),
    actorId: event.actorId,
    recipientId: event.recipientId,
    kind: event.kind,
    postId: event.postId ?? null,
  });
  return row?.withdrawn ?? 0;
}
