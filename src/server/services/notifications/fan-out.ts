import { eq, sql } from "drizzle-orm";
import { TOPICS } from "#shared/schemas/notifications.ts";
import { posts, users } from "../../db/schema.ts";
import { holdsMutedWord, mutes } from "../blocks/queries.ts";
import type { Deps } from "../core/deps.ts";
import { subscriptionTokenSql } from "../subscribers/subscriptions.ts";
import { mailtoOf, newPostMail, UNSUBSCRIBE_PLACEHOLDER } from "./mails.ts";
import { NOTIFICATIONS_CHANNEL, type NotificationsChanged } from "./notify.ts";
import { unsubscribeTokenSql } from "./unsubscribe.ts";

/**
 * A post went out: its author's followers are told, in one statement however many they are. Each gets one
 * notification and, if they chose e-mail for new posts and their address is verified, one mail in the outbox with
 * their own one-click unsubscribe link (computed by the database). The notification's unique key makes it once per
 * follower and post: publishing again (after a spell as a draft), a second instance or a retried job tells nobody
 * twice. Addresses subscribed by e-mail get the post too, once (`subscriber_mailings`), and not when the same
 * address got it as a follower. A
 * blocked author's posts tell no one. Run it in the transaction that publishes, then `announceNewPost`.
 */
export async function fanOutNewPost(deps: Pick<Deps, "db" | "config">, postId: string) {
  const [post] = await deps.db
    .select({
      title: posts.title,
      description: posts.description,
      authorId: posts.userId,
      author: sql<string>`${users.firstName} || ' ' || ${users.lastName}`,
    })
    .from(posts)
    .innerJoin(users, eq(users.id, posts.userId))
    .where(
      sql`${posts.id} = ${postId} and ${posts.status} = 'published' and ${posts.moderation} = 'visible' and not ${users.isBlocked} and ${users.suspendedAt} is null`,
    );
  if (!post) return { notified: 0, mailed: 0 };

  const { publicUrl, jwtSecret, mailFrom } = deps.config;
  const mail = newPostMail({ ...post, url: `${publicUrl}/posts/${postId}` });
  const subscriberMail = newPostMail({ ...post, url: `${publicUrl}/posts/${postId}` }, "subscriber");
  const link = sql`${`${publicUrl}/unsubscribe/`} || u.id::text || '/new_post/' || ${unsubscribeTokenSql(jwtSecret ?? "", sql`u.id`, "new_post")}`;
  const subscriberLink = sql`${`${publicUrl}/subscriptions/unsubscribe/`} || s.id::text || '/' || ${subscriptionTokenSql(jwtSecret ?? "", sql`s.id`)}`;
  const mailto = `mailto:${mailtoOf(mailFrom)}?subject=unsubscribe%20`;
  const headers = sql`jsonb_build_object(
          'List-Unsubscribe', '<' || link.url || '>, <' || ${mailto} || replace(link.url, '/', '%2F') || '>',
          'List-Unsubscribe-Post', 'List-Unsubscribe=One-Click')`;
  const result = await deps.db.execute(sql`
    with note as (
      insert into notifications (user_id, kind, post_id, group_key, last_actor_id)
      select f.follower_id, 'new_post', ${postId}::uuid, ${postId}, ${post.authorId}::uuid
      from follows f join users u on u.id = f.follower_id
      where f.followee_id = ${post.authorId} and not u.is_blocked
        and not ${mutes(sql`f.follower_id`, sql`f.followee_id`)}
        and not ${holdsMutedWord(sql`f.follower_id`, sql`${post.title} || ' ' || ${post.description}`)}
      on conflict (user_id, kind, group_key) do nothing
      returning id, user_id
    ),
    mail as (
      insert into mail_outbox (id, "to", subject, text, html, headers)
      select gen_random_uuid(), u.email, ${mail.subject}, replace(${mail.text}, ${UNSUBSCRIBE_PLACEHOLDER}, link.url),
        replace(${mail.html}, ${UNSUBSCRIBE_PLACEHOLDER}, link.url), ${headers}
      from note join users u on u.id = note.user_id
      left join notification_settings s on s.user_id = u.id and s.topic = 'new_post'
      cross join lateral (select ${link} as url) link
      where u.is_account_verified and coalesce(s.delivery::text, ${TOPICS.new_post.delivery}) = 'email'
      returning "to"
    ),
    mailing as (
      insert into subscriber_mailings (post_id) values (${postId}) on conflict do nothing returning 1
    ),
    subscriber_mail as (
      insert into mail_outbox (id, "to", subject, text, html, headers)
      select gen_random_uuid(), s.email, ${subscriberMail.subject},
        replace(${subscriberMail.text}, ${UNSUBSCRIBE_PLACEHOLDER}, link.url),
        replace(${subscriberMail.html}, ${UNSUBSCRIBE_PLACEHOLDER}, link.url), ${headers}
      from email_subscriptions s
      cross join lateral (select ${subscriberLink} as url) link
      where s.author_id = ${post.authorId} and s.status = 'active'
        and s.email not in (select lower("to") from mail) and exists (select 1 from mailing)
      returning 1
    )
    select (select count(*) from note)::int as notified,
      ((select count(*) from mail) + (select count(*) from subscriber_mail))::int as mailed`);
  return (result as unknown as { rows: { notified: number; mailed: number }[] }).rows[0] ?? { notified: 0, mailed: 0 };
}

/** After the publishing transaction: its mail starts out now, and followers' open pages hear of the post. */
export function announceNewPost(
  deps: Pick<Deps, "mailer" | "bus">,
  postId: string,
  fannedOut: { notified: number; mailed: number },
) {
  if (fannedOut.mailed > 0) deps.mailer.drain();
  if (fannedOut.notified > 0)
    deps.bus.publish(NOTIFICATIONS_CHANNEL, { newPost: postId } satisfies NotificationsChanged);
}
