import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { comments, posts, users } from "../../db/schema.ts";
import { commentColumns, toComment } from "../core/comment-fields.ts";
import { isReachable } from "../core/post-queries.ts";
import { recordEvents } from "./events.ts";

// A comment's webhook events, each in the transaction of its change, for its post's author: `comment.created` when
// the API starts showing it (written, let through by the author or a moderator, its author's suspension or block
// lifted), `comment.deleted` when it stops (deleted, hidden). A comment on a post nobody can read is neither: its
// post's own events say so.

type Tx = Pick<Db, "execute" | "select">;

/** Comments just made visible: those on a reachable post are told, as `GET /api/comments/{id}` shows them. */
export async function commentsShown(tx: Tx, ids: string[]) {
  if (ids.length === 0) return;
  const rows = await tx
    .select({ ...commentColumns, postAuthorId: posts.userId })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.userId))
    .innerJoin(posts, and(eq(posts.id, comments.postId), isReachable))
    .where(and(inArray(comments.id, ids), eq(comments.moderation, "visible")));
  await recordEvents(
    tx,
    "comment.created",
    rows.map((row) => ({ ownerId: row.postAuthorId, data: () => toComment(row) })),
  );
}

/**
 * Comments that were visible and no longer are (deleted or hidden; the caller knows they were shown): those on a
 * post still reachable are told gone, by id.
 */
export async function commentsGone(tx: Tx, gone: { id: string; postId: string }[]) {
  if (gone.length === 0) return;
  const shownOn = await tx
    .select({ id: posts.id, authorId: posts.userId })
    .from(posts)
    .where(and(inArray(posts.id, [...new Set(gone.map((comment) => comment.postId))]), isReachable));
  const authors = new Map(shownOn.map((post) => [post.id, post.authorId]));
  await recordEvents(
    tx,
    "comment.deleted",
    gone.flatMap((comment) => {
      const ownerId = authors.get(comment.postId);
      return ownerId ? [{ ownerId, data: () => ({ id: comment.id, postId: comment.postId }) }] : [];
    }),
  );
}
