import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { UNREAD_COUNT_LIMIT } from "#shared/schemas/live.ts";
import {
  type Notification,
  type NotificationSettings,
  type NotificationTopic,
  SETTABLE_TOPICS,
  TOPICS,
} from "#shared/schemas/notifications.ts";
import { notificationActors, notificationSettings, notifications, payments, posts, users } from "../../db/schema.ts";
import { afterCursor, cursorKey, toPage } from "../../infra/cursor.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { NOTHING_PUBLIC } from "../core/tags.ts";
import { toUserSummary } from "../core/user-fields.ts";
import { NOTIFICATIONS_CHANNEL, type NotificationsChanged } from "./notify.ts";
import { shownSql } from "./queries.ts";

const NOTIFICATION_ID = sql.raw('"notifications"."id"');

/**
 * The statement of a page of a user's notifications, newest first, on (user, updated_at, id): the people, post and
 * payment of the page's rows only. Apart so its plan can be tested.
 */
export function notificationsPage(
  db: Deps["db"],
  userId: string,
  query: { limit: number; cursor?: string | undefined },
) {
  return db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      readAt: notifications.readAt,
      updatedAt: notifications.updatedAt,
      createdAt: notifications.createdAt,
      cursorAt: cursorKey(notifications.updatedAt),
      actor: { id: users.id, firstName: users.firstName, lastName: users.lastName, profilePhoto: users.profilePhoto },
      actorsCount: sql<number>`greatest(
        (select count(*)::int from ${notificationActors} where ${notificationActors.notificationId} = ${NOTIFICATION_ID}),
        case when ${notifications.lastActorId} is null then 0 else 1 end)`,
      post: { id: posts.id, title: posts.title },
      amountWei: sql<string | null>`${payments.amountWei}::text`,
    })
    .from(notifications)
    .leftJoin(users, eq(users.id, notifications.lastActorId))
    .leftJoin(posts, eq(posts.id, notifications.postId))
    .leftJoin(payments, eq(payments.id, notifications.paymentId))
    .where(
      and(
        eq(notifications.userId, userId),
        afterCursor(notifications.updatedAt, notifications.id, query.cursor),
        shownSql('"notifications"'),
      ),
    )
    .orderBy(desc(notifications.updatedAt), desc(notifications.id))
    .limit(query.limit + 1);
}

/** A user's notifications, a page at a time (`notificationsPage`). */
export async function listNotifications(
  deps: Pick<Deps, "db">,
  user: AuthUser,
  query: { limit: number; cursor?: string | undefined },
) {
  const rows = await notificationsPage(deps.db, user.id, query);
  const page = toPage(rows, query.limit, (row) => [row.cursorAt, row.id]);
  return {
    items: page.items.map(
      (row): Notification => ({
        _id: row.id,
        id: row.id,
        kind: row.kind,
        actor: row.actor?.id ? toUserSummary(row.actor) : null,
        actorsCount: row.actorsCount,
        post: row.post?.id ? row.post : null,
        amountWei: row.amountWei,
        read: row.readAt !== null,
        updatedAt: row.updatedAt.toISOString(),
        createdAt: row.createdAt.toISOString(),
      }),
    ),
    nextCursor: page.nextCursor,
  };
}

/** The statement counting a user's unread notifications on the partial index, up to a bound. Apart for its plan. */
export const unreadCountStatement = (userId: string) => sql`
    select count(*)::int as count from (
      select 1 from ${notifications} n where n.user_id = ${userId} and n.read_at is null and ${shownSql("n")}
      limit ${UNREAD_COUNT_LIMIT}) unread`;

/** How many are unread (the bell says "99+" past the bound). */
export async function unreadCount(deps: Pick<Deps, "db">, userId: string) {
  const [row] = await deps.db
    .execute<{ count: number }>(unreadCountStatement(userId))
    .then((result) => (result as unknown as { rows: { count: number }[] }).rows);
  return { count: row?.count ?? 0 };
}

/** The unread counts of several users at once (the open pages an instance keeps live). */
export async function unreadCounts(deps: Pick<Deps, "db">, userIds: string[]) {
  if (userIds.length === 0) return new Map<string, number>();
  const result = await deps.db.execute(sql`
    select u.id as user_id, (select count(*)::int from (
      select 1 from ${notifications} n where n.user_id = u.id and n.read_at is null and ${shownSql("n")}
      limit ${UNREAD_COUNT_LIMIT}) unread) as count
    from unnest(${sql.raw(`'{${userIds.map((id) => id.replace(/[^0-9a-f-]/gi, "")).join(",")}}'`)}::uuid[]) as u(id)`);
  const rows = (result as unknown as { rows: { user_id: string; count: number }[] }).rows;
  return new Map(rows.map((row) => [row.user_id, row.count]));
}

/** Marks some (or all) of a user's notifications read; answers what is still unread. */
export async function markRead(deps: Pick<Deps, "db" | "bus" | "changed">, user: AuthUser, ids?: string[]) {
  deps.changed(NOTHING_PUBLIC);
  if (ids?.length === 0) return unreadCount(deps, user.id);
  await deps.db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(
      and(
        eq(notifications.userId, user.id),
        isNull(notifications.readAt),
        ids ? inArray(notifications.id, ids) : undefined,
      ),
    );
  deps.bus.publish(NOTIFICATIONS_CHANNEL, { users: [user.id] } satisfies NotificationsChanged);
  return unreadCount(deps, user.id);
}

export async function getSettings(deps: Pick<Deps, "db">, user: AuthUser): Promise<NotificationSettings> {
  const rows = await deps.db
    .select({ topic: notificationSettings.topic, delivery: notificationSettings.delivery })
    .from(notificationSettings)
    .where(eq(notificationSettings.userId, user.id));
  const chosen = new Map(rows.map((row) => [row.topic, row.delivery]));
  return {
    settings: SETTABLE_TOPICS.map((topic) => ({ topic, delivery: chosen.get(topic) ?? TOPICS[topic].delivery })),
    emailVerified: user.isAccountVerified,
  };
}

export async function updateSettings(
  deps: Pick<Deps, "db" | "changed">,
  user: AuthUser,
  settings: { topic: NotificationTopic; delivery: "app" | "email" | "digest" }[],
) {
  deps.changed(NOTHING_PUBLIC);
  await deps.db
    .insert(notificationSettings)
    .values(settings.map((setting) => ({ userId: user.id, ...setting })))
    .onConflictDoUpdate({
      target: [notificationSettings.userId, notificationSettings.topic],
      set: { delivery: sql`excluded.delivery`, updatedAt: new Date() },
    });
  return getSettings(deps, user);
}
