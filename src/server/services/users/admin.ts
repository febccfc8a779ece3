import { desc, eq, sql } from "drizzle-orm";
import type { PageQuery } from "#shared/schemas/pagination.ts";
import { rewards, users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { afterCursor, cursorKey, toPage } from "../../infra/cursor.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { findUser } from "../core/find-user.ts";
import { announceSessionsEnded } from "../core/sessions.ts";
import { cacheTags, NOTHING_PUBLIC } from "../core/tags.ts";
import {
  followersCountSql,
  OUTER_USER_ID,
  postCountSql,
  rewardsCountSql,
  toPrivateUser,
  userColumns,
} from "../core/user-fields.ts";

/** Every user, newest first, with the counts the admin list shows; one query per page. */
export async function listUsers(deps: Pick<Deps, "db">, admin: AuthUser, query: PageQuery) {
  const rows = await deps.db
    .select({
      ...userColumns,
      followersCount: followersCountSql,
      postCount: postCountSql,
      rewardsCount: rewardsCountSql,
      isRewardedByMe: sql<boolean>`exists (select 1 from ${rewards} where ${rewards.userId} = ${OUTER_USER_ID} and ${rewards.adminId} = ${admin.id})`,
      cursorAt: cursorKey(users.createdAt),
    })
    .from(users)
    .where(afterCursor(users.createdAt, users.id, query.cursor))
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(query.limit + 1);
  const page = toPage(rows, query.limit, (row) => [row.cursorAt, row.id]);
  return {
    nextCursor: page.nextCursor,
    items: page.items.map((row) => ({
      ...toPrivateUser(row),
      followersCount: row.followersCount,
      postCount: row.postCount,
      rewardsCount: row.rewardsCount,
      isRewardedByMe: row.isRewardedByMe,
    })),
  };
}

/**
 * Blocking also ends every session of the user. The caller is an unblocked admin who cannot block themself, so the
 * last admin can never be blocked.
 */
export async function setBlocked(
  deps: Pick<Deps, "db" | "bus" | "changed">,
  admin: AuthUser,
  targetId: string,
  blocked: boolean,
) {
  if (admin.id === targetId) throw new HttpError(400, `You cannot ${blocked ? "block" : "unblock"} yourself`);
  const [target] = await deps.db
    .update(users)
    .set({
      isBlocked: blocked,
      ...(blocked ? { tokenVersion: sql`${users.tokenVersion} + 1` } : {}),
      updatedAt: new Date(),
    })
    .where(eq(users.id, targetId))
    .returning({ id: users.id });
  if (!target) throw new HttpError(404, "User not found");
  if (blocked) announceSessionsEnded(deps.bus, targetId);
  // A blocked writer's name is on every page that shows their posts and comments.
  deps.changed([cacheTags.user(targetId)]);
  return toPrivateUser(await findUser(deps, targetId));
}

/** An admin makes a user a moderator, or a moderator a user again (their sessions show it at the next login). */
export async function setModerator(
  deps: Pick<Deps, "db" | "changed">,
  admin: AuthUser,
  targetId: string,
  moderator: boolean,
) {
  if (admin.id === targetId) throw new HttpError(400, "Admins moderate already");
  const [target] = await deps.db
    .update(users)
    .set({ isModerator: moderator, updatedAt: new Date() })
    .where(eq(users.id, targetId))
    .returning({ id: users.id });
  if (!target) throw new HttpError(404, "User not found");
  deps.changed(NOTHING_PUBLIC);
  return toPrivateUser(await findUser(deps, targetId));
}
