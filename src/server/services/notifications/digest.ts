import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { describeNotification } from "#shared/notification-text.ts";
import { type NotificationKind, TOPICS } from "#shared/schemas/notifications.ts";
import { periodic } from "../../infra/periodic.ts";
import type { Deps } from "../core/deps.ts";
import { digestMail, mailtoOf, unsubscribeHeaders } from "./mails.ts";
import { shownSql } from "./queries.ts";
import { unsubscribePath, unsubscribeToken } from "./unsubscribe.ts";

const CHECK_EVERY_MS = 10 * 60_000;
/** Users claimed at a time; a run goes on until none is left for the day. */
const BATCH = 50;
/** What one digest lists at most (the rest is on the notifications screen). */
const ITEMS = 30;

/** A notification's topic, in SQL (shared/schemas/notifications.ts: topicOf). */
const topicOfKind = (kind: ReturnType<typeof sql.raw>) =>
  sql`case ${kind} when 'tip' then 'reward' when 'payment_confirmed' then 'payment' when 'payment_reorged' then 'payment' else ${kind}::text end`;

/** The topics still at their default "digest" (none today: every default is app or e-mail) count as chosen too. */
const DIGEST_BY_DEFAULT = Object.entries(TOPICS)
  .filter(([, topic]) => topic.delivery === "digest")
  .map(([name]) => name);

interface DigestItem {
  kind: NotificationKind;
  post_id: string | null;
  post_title: string | null;
  actor_name: string | null;
  others: number;
  amount: string | null;
}

/**
 * Sends the daily digests due at `now`: each verified user with a topic set to "digest" gets, once per UTC day, the
 * notifications of those topics that changed since their last digest (up to the start of today). A user's digest is
 * claimed by inserting their row for the day (unique per user and day) in the transaction that queues the mail, so
 * with several instances, a crash or a restart it goes out once; an instance that loses the race skips the user.
 */
export async function sendDigests(deps: Pick<Deps, "db" | "config" | "mailer">, now = new Date()) {
  const day = now.toISOString().slice(0, 10);
  const todayStart = new Date(`${day}T00:00:00.000Z`);
  const digestTopics = sql`(s.delivery = 'digest' or (s.delivery is null and ${topicOfKind(sql.raw("n.kind"))} = any(${`{${DIGEST_BY_DEFAULT.join(",")}}`}::text[])))`;
  let sent = 0;
  for (;;) {
    const claimed = await deps.db.transaction(async (tx) => {
      const result = await tx.execute(sql`
        insert into digests (user_id, day, covered_until)
        select u.id, ${day}::date, ${todayStart.toISOString()}::timestamptz from users u
        where u.is_account_verified and not u.is_blocked
          and not exists (select 1 from digests d where d.user_id = u.id and d.day = ${day}::date)
          and exists (
            select 1 from notifications n
            left join notification_settings s on s.user_id = n.user_id and s.topic::text = ${topicOfKind(sql.raw("n.kind"))}
            where n.user_id = u.id and n.updated_at < ${todayStart.toISOString()}::timestamptz
              and n.updated_at >= coalesce(
                (select max(d.covered_until) from digests d where d.user_id = u.id),
                ${todayStart.toISOString()}::timestamptz - interval '1 day')
              and ${digestTopics})
        limit ${BATCH}
        on conflict do nothing
        returning user_id`);
      const users = (result as unknown as { rows: { user_id: string }[] }).rows.map((row) => row.user_id);
      for (const userId of users) {
        const mail = await composeDigest(tx, deps.config, userId, todayStart, digestTopics);
        if (mail) await deps.mailer.enqueue(mail, tx, false);
      }
      return users.length;
    });
    sent += claimed;
    if (claimed < BATCH) break;
  }
  return sent;
}

async function composeDigest(
  tx: Pick<Deps, "db">["db"],
  config: Deps["config"],
  userId: string,
  todayStart: Date,
  digestTopics: ReturnType<typeof sql>,
) {
  const result = await tx.execute(sql`
    select u.email, u.first_name, n.kind, n.post_id, p.title as post_title,
      a.first_name || ' ' || a.last_name as actor_name,
      (select count(*)::int from notification_actors na where na.notification_id = n.id and na.actor_id <> n.last_actor_id) as others,
      pm.amount_wei::text as amount
    from notifications n
    join users u on u.id = n.user_id
    left join users a on a.id = n.last_actor_id
    left join posts p on p.id = n.post_id
    left join payments pm on pm.id = n.payment_id
    left join notification_settings s on s.user_id = n.user_id and s.topic::text = ${topicOfKind(sql.raw("n.kind"))}
    where n.user_id = ${userId} and n.updated_at < ${todayStart.toISOString()}::timestamptz
      and n.updated_at >= coalesce(
        (select max(d.covered_until) from digests d where d.user_id = n.user_id and d.covered_until < ${todayStart.toISOString()}::timestamptz),
        ${todayStart.toISOString()}::timestamptz - interval '1 day')
      and ${digestTopics} and ${shownSql("n")}
    order by n.updated_at desc limit ${ITEMS}`);
  const rows = (result as unknown as { rows: (DigestItem & { email: string; first_name: string })[] }).rows;
  const first = rows[0];
  if (!first) return null;
  const unsubscribeUrl = `${config.publicUrl}${unsubscribePath(userId, "digest", unsubscribeToken(config.jwtSecret ?? "", userId, "digest"))}`;
  const items = rows.map((row) => ({
    what: describeNotification({
      kind: row.kind,
      actor: row.actor_name,
      others: row.others,
      postTitle: row.post_title,
      amountWei: row.amount,
    }),
    link: row.post_id ? `${config.publicUrl}/posts/${row.post_id}` : `${config.publicUrl}/notifications`,
  }));
  return {
    to: first.email,
    ...digestMail(first.first_name, items, unsubscribeUrl),
    headers: unsubscribeHeaders(unsubscribeUrl, mailtoOf(config.mailFrom)),
  };
}

/** Sends the day's digests at start and every few minutes, on every instance (the claim makes each go once). */
export function createDigestJob(deps: Pick<Deps, "db" | "config" | "mailer"> & { log: FastifyBaseLogger }) {
  return {
    ...periodic(
      async () => {
        const sent = await sendDigests(deps);
        if (sent > 0) {
          deps.log.info({ digests: sent }, "daily digests queued");
          deps.mailer.drain();
        }
      },
      { everyMs: CHECK_EVERY_MS, atStart: true, onError: (error) => deps.log.warn({ err: error }, "digests failed") },
    ),
  };
}
export type DigestJob = ReturnType<typeof createDigestJob>;
