import { getTableColumns, sql } from "drizzle-orm";
import type { PrivateUser, PublicUser, UserSummary } from "../../../shared/schemas/users.ts";
import { follows, posts, rewards, users } from "../../db/schema.ts";

type UserRow = typeof users.$inferSelect;

/** 'Pro Account' once the user has a featured post. */
export const accountTypeSql = sql<"Starter Account" | "Pro Account">`case when exists (
  select 1 from ${posts} where ${posts.userId} = ${users.id} and ${posts.isFeatured}
) then 'Pro Account' else 'Starter Account' end`;

export const followersCountSql = sql<number>`(select count(*)::int from ${follows} where ${follows.followeeId} = ${users.id})`;
export const postCountSql = sql<number>`(select count(*)::int from ${posts} where ${posts.userId} = ${users.id})`;
export const rewardsCountSql = sql<number>`(select count(*)::int from ${rewards} where ${rewards.userId} = ${users.id})`;

export const userColumns = { ...getTableColumns(users), accountType: accountTypeSql };
export type UserWithType = UserRow & { accountType: "Starter Account" | "Pro Account" };

export function toPublicUser(user: UserWithType): PublicUser {
  return {
    _id: user.id,
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
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
  return { ...toPublicUser(user), email: user.email, isBlocked: user.isBlocked };
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
