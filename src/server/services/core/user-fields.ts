import { getTableColumns, sql } from "drizzle-orm";
import type { PrivateUser, PublicUser, UserSummary } from "#shared/schemas/users.ts";
import { follows, posts, rewards, users } from "../../db/schema.ts";

type UserRow = typeof users.$inferSelect;

// Drizzle leaves columns unqualified in single-table selects, where a bare "id" inside a subquery would bind to
// the subquery's own table; the outer user is therefore always named in full.
export const OUTER_USER_ID = sql.raw('"users"."id"');

/** 'Pro Account' once the user has a featured post out (a featured draft is not shown to anyone yet). */
export const accountTypeSql = sql<"Starter Account" | "Pro Account">`case when exists (
  select 1 from ${posts} where ${posts.userId} = ${OUTER_USER_ID} and ${posts.isFeatured} and ${posts.status} = 'published' and ${posts.moderation} = 'visible'
) then 'Pro Account' else 'Starter Account' end`;

export const followersCountSql = sql<number>`(select count(*)::int from ${follows} where ${follows.followeeId} = ${OUTER_USER_ID})`;
export const postCountSql = sql<number>`(select count(*)::int from ${posts} where ${posts.userId} = ${OUTER_USER_ID} and ${posts.status} = 'published' and ${posts.moderation} = 'visible')`;
export const rewardsCountSql = sql<number>`(select count(*)::int from ${rewards} where ${rewards.userId} = ${OUTER_USER_ID})`;

/** The few columns a user is shown by beside a post, comment, payment or reward. */
export const userSummaryColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  profilePhoto: users.profilePhoto,
};

export const userColumns = { ...getTableColumns(users), accountType: accountTypeSql };
export type UserWithType = UserRow & { accountType: "Starter Account" | "Pro Account" };

export function toPublicUser(user: UserWithType): PublicUser {
  return {
    _id: user.id,
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    handle: user.handle,
    bio: user.bio,
    profilePhoto: user.profilePhoto,
    isAdmin: user.isAdmin,
    isAccountVerified: user.isAccountVerified,
    accountType: user.accountType,
    walletAddress: user.walletAddress,
    isWalletVerified: user.walletVerifiedAt !== null,
    createdAt: user.createdAt.toISOString(),
  };
}

export function toPrivateUser(user: UserWithType): PrivateUser {
  return { ...toPublicUser(user), email: user.email, isBlocked: user.isBlocked, isModerator: user.isModerator };
}

export function toUserSummary(user: Pick<UserRow, "id" | "firstName" | "lastName" | "profilePhoto">): UserSummary {
  return {
    _id: user.id,
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    profilePhoto: user.profilePhoto,
  };
}
