import { sql } from "drizzle-orm";
import type { Delivery, NotificationKind, NotificationTopic } from "#shared/schemas/notifications.ts";
import { statement } from "../../db/statement.ts";
import { holdsMutedWord, silences } from "../blocks/queries.ts";

/** The statements of notifications: telling one, taking one back, and which entries a reader is shown. */

/**
 * The statements that tell and take back one actor's notifications to one recipient wait for each other: each reads
 * this CTE, which holds an advisory lock until the statement ends, before it writes (decision 004).
 */
const inTurn = sql`in_turn as (select pg_advisory_xact_lock(hashtext(${sql.placeholder("recipientKey")}), hashtext(${sql.placeholder("actorKey")})))`;
/** What the lock of `inTurn` is named after (its two halves are hashed into the advisory lock's two keys). */
export const notificationLockKeys = (recipientId: string, actorId: string | null) => ({
  recipientKey: `notify:${recipientId}`,
  actorKey: actorId ?? "-",
});
export type NotificationLockKeys = ReturnType<typeof notificationLockKeys>;

export interface Told {
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

/** The statement that tells: see `notify`. */
export type NotifyParams = NotificationLockKeys & {
  recipientId: string;
  actorId: string | null;
  kind: NotificationKind;
  postId: string | null;
  paymentId: string | null;
  group: string;
  defaultDelivery: Delivery;
  topic: NotificationTopic;
};
export const notifyStatement = statement<NotifyParams, Told>(() => {
  const actor = sql`${sql.placeholder("actorId")}::uuid`;
  return sql`
    with ${inTurn},
    recipient as (
      select u.id from users u, in_turn
      where u.id = ${sql.placeholder("recipientId")} and not u.is_blocked and u.id is distinct from ${actor}
        and (${actor} is null or exists (select 1 from users a where a.id = ${actor} and not a.is_blocked))
        and (${actor} is null or not ${silences(sql`u.id`, actor)})
        and not exists (select 1 from posts p where p.id = ${sql.placeholder("postId")}::uuid
          and ${holdsMutedWord(sql`u.id`, sql`p.title`)})
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

/** The statement that takes back: see `withdraw`. */
export type WithdrawParams = NotificationLockKeys & {
  actorId: string;
  recipientId: string;
  kind: NotificationKind;
  postId: string | null;
};
export const withdrawStatement = statement<WithdrawParams, { withdrawn: number }>(
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

/**
 * A notification its recipient may see, for the row `n`: its post is public (or the recipient's own), so a post
 * taken back to a draft shows no title it has now, its last actor is not blocked by an admin, nor blocked or muted
 * by the recipient, and its post's title holds none of the recipient's muted words. The post's checks begin with
 * `post_id is null or` so PostgreSQL does not plan them as a join, which it misjudges for notifications without a post
 * (it then sorts all of a reader's notifications for each page rather than read its index).
 */
export const shownSql = (n: string) =>
  sql.raw(`(${n}.post_id is null or not exists (select 1 from posts p where p.id = ${n}.post_id and (p.status <> 'published' or p.moderation <> 'visible') and p.user_id <> ${n}.user_id))
    and not exists (select 1 from users a where a.id = ${n}.last_actor_id and a.is_blocked)
    and not exists (select 1 from user_blocks b where b.blocker_id = ${n}.user_id and b.blocked_id = ${n}.last_actor_id)
    and not exists (select 1 from user_mutes m where m.muter_id = ${n}.user_id and m.muted_id = ${n}.last_actor_id)
    and (${n}.post_id is null or not exists (select 1 from muted_words w join posts p on p.id = ${n}.post_id
      where w.user_id = ${n}.user_id and strpos(lower(p.title), w.word) > 0))`);
