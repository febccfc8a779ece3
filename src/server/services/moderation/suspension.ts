import { and, eq, inArray, isNotNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { comments, emailSubscriptions, follows, posts, users } from "../../db/schema.ts";
import { periodic } from "../../infra/periodic.ts";
import type { Deps } from "../core/deps.ts";
import { queuePostActivity } from "../core/federation-queue.ts";
import { commentsGone, commentsShown } from "../webhooks/comment-events.ts";
import { recordEvents } from "../webhooks/events.ts";
import { followEvents } from "../webhooks/follow-events.ts";
import { postActivityEvent } from "../webhooks/post-events.ts";

/** Marks what a suspension hid, so lifting it brings back that and nothing a moderator hid on its own. */
export const SUSPENDED = "Account suspended";
const ERASE_AFTER_DAYS = 30;

/**
 * Suspends an account in the caller's transaction: it cannot sign in (its sessions end), and every visible post and
 * comment of its leaves every public place, posts the fediverse too. Answers how many posts it hid. `suspendedAt`
 * alone locks it out: an admin's block (`isBlocked`) is another lock, so lifting one never lifts the other.
 */
export async function suspend(tx: Db, deps: Pick<Deps, "config">, userId: string) {
  await tx
    .update(users)
    .set({
      suspendedAt: new Date(),
      tokenVersion: sql`${users.tokenVersion} + 1`,
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId));
  const hidden = await tx
    .update(posts)
    .set({ moderation: "hidden", moderationReason: SUSPENDED })
    .where(and(eq(posts.userId, userId), eq(posts.moderation, "visible")))
    .returning({ id: posts.id, status: posts.status });
  const hiddenComments = await tx
    .update(comments)
    .set({ moderation: "hidden", moderationReason: SUSPENDED })
    .where(and(eq(comments.userId, userId), eq(comments.moderation, "visible")))
    .returning({ id: comments.id, postId: comments.postId });
  // Told after the posts went: a comment on one of the account's own posts leaves with its post.
  await commentsGone(tx, hiddenComments);
  for (const post of hidden.filter((row) => row.status === "published")) {
    await queuePostActivity({ db: tx, config: deps.config }, { action: "delete", postId: post.id, authorId: userId });
    await postActivityEvent(tx, "delete", post.id, userId);
  }
  return hidden.length;
}

/** Lifts a suspension: the account signs in again, and what the suspension hid is back where it was. */
export async function lift(tx: Db, deps: Pick<Deps, "config">, userId: string) {
  await tx.update(users).set({ suspendedAt: null, updatedAt: new Date() }).where(eq(users.id, userId));
  // The comments come back before the posts, so that those on the account's own posts come with their post's event.
  const shownComments = await tx
    .update(comments)
    .set({ moderation: "visible", moderationReason: null })
    .where(
      and(eq(comments.userId, userId), eq(comments.moderation, "hidden"), eq(comments.moderationReason, SUSPENDED)),
    )
    .returning({ id: comments.id });
  await commentsShown(
    tx,
    shownComments.map((comment) => comment.id),
  );
  const restored = await tx
    .update(posts)
    .set({ moderation: "visible", moderationReason: null })
    .where(and(eq(posts.userId, userId), eq(posts.moderation, "hidden"), eq(posts.moderationReason, SUSPENDED)))
    .returning({ id: posts.id, status: posts.status });
  for (const post of restored.filter((row) => row.status === "published")) {
    await queuePostActivity({ db: tx, config: deps.config }, { action: "create", postId: post.id, authorId: userId });
    await postActivityEvent(tx, "create", post.id, userId);
  }
}

/** Marks what a limit took out of lists, so lifting it brings back that and nothing else. */
export const LIMITED = "Account limited";

/**
 * Limits an account in the caller's transaction: what it writes from now on waits for a moderator, and its public
 * posts stay at their addresses but leave every list, feed, search, the sitemap and the fediverse.
 */
export async function limit(tx: Db, deps: Pick<Deps, "config">, userId: string) {
  await tx.update(users).set({ limitedAt: new Date(), updatedAt: new Date() }).where(eq(users.id, userId));
  const limited = await tx
    .update(posts)
    .set({ moderation: "limited", moderationReason: LIMITED })
    .where(and(eq(posts.userId, userId), eq(posts.moderation, "visible")))
    .returning({ id: posts.id, status: posts.status });
  for (const post of limited.filter((row) => row.status === "published")) {
    await queuePostActivity({ db: tx, config: deps.config }, { action: "delete", postId: post.id, authorId: userId });
    await postActivityEvent(tx, "delete", post.id, userId);
  }
}

/** Lifts a limit: the account's posts are listed and federated again, and what it writes is published at once. */
export async function unlimit(tx: Db, deps: Pick<Deps, "config">, userId: string) {
  await tx.update(users).set({ limitedAt: null, updatedAt: new Date() }).where(eq(users.id, userId));
  const listed = await tx
    .update(posts)
    .set({ moderation: "visible", moderationReason: null })
    .where(and(eq(posts.userId, userId), eq(posts.moderation, "limited")))
    .returning({ id: posts.id, status: posts.status });
  for (const post of listed.filter((row) => row.status === "published")) {
    await queuePostActivity({ db: tx, config: deps.config }, { action: "create", postId: post.id, authorId: userId });
    await postActivityEvent(tx, "create", post.id, userId);
  }
}

/**
 * Erases the accounts suspended 30 days ago or more (their posts, comments and reactions go with them). What the
 * suspension hid was told gone then; what the public still saw of them (their follows, both ways, and their e-mail
 * subscribers) is told gone in the same transaction as the erasure.
 */
export async function eraseSuspended(deps: Pick<Deps, "db" | "log">, now = new Date()) {
  const before = new Date(now.getTime() - ERASE_AFTER_DAYS * 24 * 60 * 60 * 1000);
  const erased = await deps.db.transaction(async (tx) => {
    const due = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(isNotNull(users.suspendedAt), lt(users.suspendedAt, before)))
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    const ids = due.map((user) => user.id);
    const ended = await tx
      .select({ followerId: follows.followerId, followeeId: follows.followeeId })
      .from(follows)
      .where(or(inArray(follows.followerId, ids), inArray(follows.followeeId, ids)));
    await followEvents(tx, "follower.deleted", ended, new Set(ids));
    const subscribers = await tx
      .select({ id: emailSubscriptions.id, authorId: emailSubscriptions.authorId, email: emailSubscriptions.email })
      .from(emailSubscriptions)
      .where(and(inArray(emailSubscriptions.authorId, ids), eq(emailSubscriptions.status, "active")));
    await recordEvents(
      tx,
      "subscriber.deleted",
      subscribers.map((row) => ({ ownerId: row.authorId, data: () => row })),
    );
    return tx.delete(users).where(inArray(users.id, ids)).returning({ id: users.id });
  });
  for (const user of erased) deps.log.info({ userId: user.id }, "a suspended account was erased");
  return erased.length;
}

/** Looks for accounts to erase once an hour, on every instance (a second delete finds nothing). */
export const createErasureJob = (deps: Pick<Deps, "db" | "log">) =>
  periodic(() => eraseSuspended(deps), {
    everyMs: 60 * 60_000,
    onError: (error) => deps.log.warn({ err: error }, "erasing suspended accounts failed"),
  });
