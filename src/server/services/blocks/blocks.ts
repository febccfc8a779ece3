import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import type { MutedWordsInput, RelationResult, Relations } from "#shared/schemas/blocks.ts";
import { comments, follows, mutedWords, posts, userBlocks, userMutes, users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { findUser } from "../core/find-user.ts";
import { cacheTags, NOTHING_PUBLIC } from "../core/tags.ts";
import { toUserSummary, userSummaryColumns } from "../core/user-fields.ts";
import { commentsGone, commentsShown } from "../webhooks/comment-events.ts";
import { followEvents } from "../webhooks/follow-events.ts";

async function relationOf(deps: Pick<Deps, "db">, ownerId: string, otherId: string): Promise<RelationResult> {
  const [row] = await deps.db
    .execute<{ blocking: boolean; muting: boolean }>(sql`select
      exists (select 1 from ${userBlocks} where blocker_id = ${ownerId} and blocked_id = ${otherId}) as blocking,
      exists (select 1 from ${userMutes} where muter_id = ${ownerId} and muted_id = ${otherId}) as muting`)
    .then((result) => (result as unknown as { rows: RelationResult[] }).rows);
  return row ?? { blocking: false, muting: false };
}

async function refuseSelf(deps: Pick<Deps, "db">, user: AuthUser, otherId: string, what: string) {
  if (user.id === otherId) throw new HttpError(400, `You cannot ${what} yourself`);
  await findUser(deps, otherId);
}

/** Marks the comments a block hid, so unblocking brings back those and nothing a moderator hid. */
export const HIDDEN_BY_BLOCK = "Its post's author blocked its author";

/**
 * Blocks (or unblocks) someone. A block ends follows both ways and hides the blocked person's comments on the
 * blocker's posts from everyone (their counts too); unblocking brings those back. Nobody is told, but webhooks hear
 * what the public sees change: the follows ended, the comments gone or back.
 */
export async function setBlocked(
  deps: Pick<Deps, "db" | "changed">,
  user: AuthUser,
  otherId: string,
  blocking: boolean,
) {
  await refuseSelf(deps, user, otherId, "block");
  const ownPosts = deps.db.select({ id: posts.id }).from(posts).where(eq(posts.userId, user.id));
  const changed = await deps.db.transaction(async (tx) => {
    if (!blocking) {
      await tx.delete(userBlocks).where(and(eq(userBlocks.blockerId, user.id), eq(userBlocks.blockedId, otherId)));
      const shown = await tx
        .update(comments)
        .set({ moderation: "visible", moderationReason: null })
        .where(
          and(
            eq(comments.userId, otherId),
            eq(comments.moderation, "hidden"),
            eq(comments.moderationReason, HIDDEN_BY_BLOCK),
            inArray(comments.postId, ownPosts),
          ),
        )
        .returning({ id: comments.id, postId: comments.postId });
      await commentsShown(
        tx,
        shown.map((comment) => comment.id),
      );
      return shown;
    }
    await tx.insert(userBlocks).values({ blockerId: user.id, blockedId: otherId }).onConflictDoNothing();
    const ended = await tx
      .delete(follows)
      .where(
        or(
          and(eq(follows.followerId, otherId), eq(follows.followeeId, user.id)),
          and(eq(follows.followerId, user.id), eq(follows.followeeId, otherId)),
        ),
      )
      .returning({ followerId: follows.followerId, followeeId: follows.followeeId });
    await followEvents(tx, "follower.deleted", ended);
    const hidden = await tx
      .update(comments)
      .set({ moderation: "hidden", moderationReason: HIDDEN_BY_BLOCK })
      .where(and(eq(comments.userId, otherId), eq(comments.moderation, "visible"), inArray(comments.postId, ownPosts)))
      .returning({ id: comments.id, postId: comments.postId });
    await commentsGone(tx, hidden);
    return hidden;
  });
  const postIds = [...new Set(changed.map((row) => row.postId))];
  deps.changed(
    postIds.length > 0
      ? postIds.flatMap((postId) => [cacheTags.comments(postId), cacheTags.counts(postId)])
      : NOTHING_PUBLIC,
  );
  return relationOf(deps, user.id, otherId);
}

/** Mutes (or unmutes) someone: gone from the muter's feed and notifications; nobody else sees a difference. */
export async function setMuted(deps: Pick<Deps, "db" | "changed">, user: AuthUser, otherId: string, muting: boolean) {
  await refuseSelf(deps, user, otherId, "mute");
  if (muting) await deps.db.insert(userMutes).values({ muterId: user.id, mutedId: otherId }).onConflictDoNothing();
  else await deps.db.delete(userMutes).where(and(eq(userMutes.muterId, user.id), eq(userMutes.mutedId, otherId)));
  deps.changed(NOTHING_PUBLIC);
  return relationOf(deps, user.id, otherId);
}

/** Whom the user blocked and muted (most recent first) and the words they muted. */
export async function listRelations(deps: Pick<Deps, "db">, user: AuthUser): Promise<Relations> {
  const [blocked, muted, words] = await Promise.all([
    deps.db
      .select(userSummaryColumns)
      .from(userBlocks)
      .innerJoin(users, eq(users.id, userBlocks.blockedId))
      .where(eq(userBlocks.blockerId, user.id))
      .orderBy(sql`${userBlocks.createdAt} desc`),
    deps.db
      .select(userSummaryColumns)
      .from(userMutes)
      .innerJoin(users, eq(users.id, userMutes.mutedId))
      .where(eq(userMutes.muterId, user.id))
      .orderBy(sql`${userMutes.createdAt} desc`),
    deps.db
      .select({ word: mutedWords.word })
      .from(mutedWords)
      .where(eq(mutedWords.userId, user.id))
      .orderBy(asc(mutedWords.word)),
  ]);
  return {
    blocked: blocked.map(toUserSummary),
    muted: muted.map(toUserSummary),
    words: words.map((row) => row.word),
  };
}

/** Replaces the user's muted words with `words` (lower case, each once). */
export async function replaceMutedWords(
  deps: Pick<Deps, "db" | "changed">,
  user: AuthUser,
  input: MutedWordsInput,
): Promise<Relations> {
  const words = [...new Set(input.words)];
  await deps.db.transaction(async (tx) => {
    await tx.delete(mutedWords).where(eq(mutedWords.userId, user.id));
    if (words.length > 0) await tx.insert(mutedWords).values(words.map((word) => ({ userId: user.id, word })));
  });
  deps.changed(NOTHING_PUBLIC);
  return listRelations(deps, user);
}

type Between = { ownerId: string; actorId: string; both?: boolean };

/** Refuses what `actorId` would do to `ownerId` when `ownerId` blocked them (and, for `both`, the other way too). */
export async function refuseIfBlocked(deps: Pick<Deps, "db">, between: Between, message: string) {
  if (await isBlocked(deps, between)) throw new HttpError(403, message);
}

/** Whether `ownerId` blocked `actorId` (or, for `both`, either blocked the other). */
export async function isBlocked(deps: Pick<Deps, "db">, owner: Between) {
  const pairs = [and(eq(userBlocks.blockerId, owner.ownerId), eq(userBlocks.blockedId, owner.actorId))];
  if (owner.both) pairs.push(and(eq(userBlocks.blockerId, owner.actorId), eq(userBlocks.blockedId, owner.ownerId)));
  const [row] = await deps.db
    .select({ one: sql`1` })
    .from(userBlocks)
    .where(or(...pairs))
    .limit(1);
  return Boolean(row);
}
