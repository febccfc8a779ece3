import { and, desc, eq, sql } from "drizzle-orm";
import { CANNOT_FOLLOW, CANNOT_FOLLOW_BLOCKED } from "#shared/schemas/blocks.ts";
import type { Profile, UpdateProfileInput } from "#shared/schemas/users.ts";
import { isForeignKeyViolation, isUniqueViolation } from "../../db/errors.ts";
import { categories, follows, posts, profileViews, remoteFollowers, users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { emailChangedMail } from "../../infra/mail-templates.ts";
import { checkCurrentPassword } from "../auth/passwords.ts";
import { EMAIL_TAKEN } from "../auth/registration.ts";
import { refuseIfBlocked } from "../blocks/blocks.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { queueActorUpdate } from "../core/federation-queue.ts";
import { findUser } from "../core/find-user.ts";
import { changeHandle } from "../core/handles.ts";
import { removeImage, storeImage } from "../core/images.ts";
import { refuseLinksFromNewAccounts } from "../core/new-accounts.ts";
import { isPublished } from "../core/post-queries.ts";
import { cacheTags, NOTHING_PUBLIC } from "../core/tags.ts";
import {
  followersCountSql,
  OUTER_USER_ID,
  postCountSql,
  rewardsCountSql,
  toPrivateUser,
  toPublicUser,
  toUserSummary,
  userColumns,
  userSummaryColumns,
} from "../core/user-fields.ts";
import { refuseFlagged } from "../moderation/filter.ts";
import { notify, withdraw } from "../notifications/notify.ts";
import { tipTotals } from "../payments/tips.ts";
import { followEvents } from "../webhooks/follow-events.ts";

const FIRST_PAGE = 20;

/** A profile with its counts, seen by `viewer`; another signed-in user's visit is recorded once per viewer. */
export async function getProfile(deps: Pick<Deps, "db">, viewer: AuthUser, profileId: string): Promise<Profile> {
  if (viewer.id !== profileId) {
    await deps.db
      .insert(profileViews)
      .values({ profileId, viewerId: viewer.id })
      .onConflictDoUpdate({ target: [profileViews.profileId, profileViews.viewerId], set: { viewedAt: new Date() } })
      .catch((error) => {
        // The foreign key fails for an unknown profile; that is answered as 404 below.
        if (!isForeignKeyViolation(error)) throw error;
      });
  }
  const [row] = await deps.db
    .select({
      ...userColumns,
      followersCount: followersCountSql,
      fediverseFollowersCount: sql<number>`(select count(*)::int from ${remoteFollowers} where ${remoteFollowers.actor} = ${OUTER_USER_ID}::text)`,
      followingCount: sql<number>`(select count(*)::int from ${follows} where ${follows.followerId} = ${OUTER_USER_ID})`,
      viewersCount: sql<number>`(select count(*)::int from ${profileViews} where ${profileViews.profileId} = ${OUTER_USER_ID})`,
      postCount: postCountSql,
      rewardsCount: rewardsCountSql,
      isFollowing: sql<boolean>`exists (select 1 from ${follows} where ${follows.followerId} = ${viewer.id} and ${follows.followeeId} = ${OUTER_USER_ID})`,
    })
    .from(users)
    .where(eq(users.id, profileId));
  if (!row) throw new HttpError(404, "User not found");

  const [viewers, recentPosts, tipsReceived] = await Promise.all([
    deps.db
      .select(userSummaryColumns)
      .from(profileViews)
      .innerJoin(users, eq(users.id, profileViews.viewerId))
      .where(eq(profileViews.profileId, profileId))
      .orderBy(desc(profileViews.viewedAt))
      .limit(FIRST_PAGE),
    deps.db
      .select({
        id: posts.id,
        title: posts.title,
        image: posts.image,
        category: categories.title,
        isFeatured: posts.isFeatured,
        numViews: posts.numViews,
        publishedAt: posts.publishedAt,
        createdAt: posts.createdAt,
      })
      .from(posts)
      .innerJoin(categories, eq(categories.id, posts.categoryId))
      .where(and(eq(posts.userId, profileId), isPublished))
      .orderBy(desc(posts.publishedAt), desc(posts.id))
      .limit(FIRST_PAGE),
    tipTotals(deps, { recipientId: profileId }),
  ]);

  const seesPrivate = viewer.id === profileId || viewer.isAdmin;
  return {
    ...(seesPrivate ? toPrivateUser(row) : toPublicUser(row)),
    followersCount: row.followersCount,
    fediverseFollowersCount: row.fediverseFollowersCount,
    followingCount: row.followingCount,
    viewersCount: row.viewersCount,
    postCount: row.postCount,
    rewardsCount: row.rewardsCount,
    tipsReceived,
    isFollowing: row.isFollowing,
    viewedBy: viewers.map(toUserSummary),
    posts: recentPosts.map((post) => ({
      ...post,
      _id: post.id,
      publishedAt: (post.publishedAt ?? post.createdAt).toISOString(),
      createdAt: post.createdAt.toISOString(),
    })),
  };
}

/** A new e-mail needs the current password, starts unverified, and the old address is told. */
export async function updateProfile(
  deps: Pick<Deps, "config" | "db" | "mailer" | "changed">,
  user: AuthUser,
  input: UpdateProfileInput,
) {
  const emailChanged = input.email.toLowerCase() !== user.email.toLowerCase();
  if (emailChanged) await checkCurrentPassword(user, input.currentPassword);
  refuseLinksFromNewAccounts(user, { firstName: input.firstName, lastName: input.lastName, bio: input.bio });
  await refuseFlagged(deps, { firstName: input.firstName, lastName: input.lastName, bio: input.bio });
  try {
    await deps.db.transaction(async (tx) => {
      if (input.handle) await changeHandle(tx, user.id, user.handle, input.handle);
      await tx
        .update(users)
        .set({
          firstName: input.firstName,
          lastName: input.lastName,
          bio: input.bio,
          email: input.email,
          // A new address has not been proven yet.
          ...(emailChanged ? { isAccountVerified: false } : {}),
          updatedAt: new Date(),
        })
        .where(eq(users.id, user.id));
      // The fediverse shows the new name, bio or handle once their servers get the actor again (an e-mail is
      // not on it).
      const shown = [input.firstName, input.lastName, input.bio, input.handle ?? user.handle];
      if (shown.join("\n") !== [user.firstName, user.lastName, user.bio, user.handle].join("\n"))
        await queueActorUpdate({ db: tx, config: deps.config }, user.id);
    });
  } catch (error) {
    if (isUniqueViolation(error, "users_email_lower_key")) throw new HttpError(409, EMAIL_TAKEN);
    throw error;
  }
  deps.changed([cacheTags.user(user.id)]);
  if (emailChanged) {
    await deps.mailer.send({ to: user.email, ...emailChangedMail(user.firstName, input.email, deps.config.publicUrl) });
  }
  return toPrivateUser(await findUser(deps, user.id));
}

async function followersCount(deps: Pick<Deps, "db">, userId: string) {
  const [row] = await deps.db
    .select({ count: sql<number>`count(*)::int` })
    .from(follows)
    .where(eq(follows.followeeId, userId));
  return row?.count ?? 0;
}

/** Whether `viewer` follows the user, and their follower count: a post's Follow button, without a profile's view. */
export async function followState(deps: Pick<Deps, "db">, viewer: AuthUser, targetId: string) {
  await findUser(deps, targetId);
  const [row] = await deps.db
    .select({ followerId: follows.followerId })
    .from(follows)
    .where(and(eq(follows.followerId, viewer.id), eq(follows.followeeId, targetId)));
  return { isFollowing: row !== undefined, followersCount: await followersCount(deps, targetId) };
}

/** Follows or unfollows; the followed user is told of a new follower, and an unfollow takes an unread notice back. */
export async function setFollowing(
  deps: Pick<Deps, "db" | "config" | "mailer" | "bus" | "log" | "changed">,
  follower: AuthUser,
  targetId: string,
  following: boolean,
) {
  if (follower.id === targetId) throw new HttpError(400, "You cannot follow yourself");
  await findUser(deps, targetId);
  if (following) {
    await refuseIfBlocked(deps, { ownerId: follower.id, actorId: targetId }, CANNOT_FOLLOW_BLOCKED);
    await refuseIfBlocked(deps, { ownerId: targetId, actorId: follower.id }, CANNOT_FOLLOW);
    const added = await deps.db.transaction(async (tx) => {
      const rows = await tx
        .insert(follows)
        .values({ followerId: follower.id, followeeId: targetId })
        .onConflictDoNothing()
        .returning({ followerId: follows.followerId });
      if (rows.length > 0)
        await followEvents(tx, "follower.created", [{ followerId: follower.id, followeeId: targetId }]);
      return rows;
    });
    if (added.length > 0) await notify(deps, { kind: "follow", recipientId: targetId, actorId: follower.id });
  } else {
    const removed = await deps.db.transaction(async (tx) => {
      const rows = await tx
        .delete(follows)
        .where(and(eq(follows.followerId, follower.id), eq(follows.followeeId, targetId)))
        .returning({ followerId: follows.followerId });
      if (rows.length > 0)
        await followEvents(tx, "follower.deleted", [{ followerId: follower.id, followeeId: targetId }]);
      return rows;
    });
    if (removed.length > 0) await withdraw(deps, { kind: "follow", recipientId: targetId, actorId: follower.id });
  }
  deps.changed(NOTHING_PUBLIC);
  return { isFollowing: following, followersCount: await followersCount(deps, targetId) };
}

export async function replacePhoto(
  deps: Pick<Deps, "db" | "config" | "log" | "storage" | "changed">,
  user: AuthUser,
  upload: Uint8Array,
) {
  const url = await storeImage(deps.storage, upload, "photo");
  await deps.db.transaction(async (tx) => {
    await tx.update(users).set({ profilePhoto: url, updatedAt: new Date() }).where(eq(users.id, user.id));
    await queueActorUpdate({ db: tx, config: deps.config }, user.id);
  });
  deps.changed([cacheTags.user(user.id)]);
  if (user.profilePhoto)
    await removeImage(deps.storage, user.profilePhoto, "photo").catch((error) =>
      deps.log.warn({ err: error }, "old photo not removed"),
    );
  return toPrivateUser(await findUser(deps, user.id));
}
