import { and, desc, eq, sql } from "drizzle-orm";
import type { Comment } from "#shared/schemas/comments.ts";
import { comments, posts, users } from "../../db/schema.ts";
import { preparedFor, statement } from "../../db/statement.ts";
import { HttpError } from "../../http-error.ts";
import { afterCursor, cursorKey, toPage } from "../../infra/cursor.ts";
import type { AuthUser } from "../auth/auth-user.ts";
import type { Deps } from "../deps.ts";
import { screenOrRefuse } from "../moderation/filter.ts";
import { queueHeld } from "../moderation/reports.ts";
import { refuseLinksFromNewAccounts } from "../moderation/spam.ts";
import { notify } from "../notifications/notify.ts";
import { cacheTags } from "../reads/tags.ts";
import { toUserSummary, userSummaryColumns } from "../users/user-fields.ts";
import { isPublished, POST_NOT_FOUND } from "./post-queries.ts";

const select = (deps: Pick<Deps, "db">) =>
  deps.db
    .select({
      id: comments.id,
      postId: comments.postId,
      description: comments.description,
      createdAt: comments.createdAt,
      updatedAt: comments.updatedAt,
      moderation: comments.moderation,
      cursorAt: cursorKey(comments.createdAt),
      author: userSummaryColumns,
    })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.userId));
type Row = Awaited<ReturnType<typeof select>>[number];

const toComment = (row: Row): Comment => ({
  _id: row.id,
  id: row.id,
  postId: row.postId,
  description: row.description,
  user: toUserSummary(row.author),
  waitingForReview: row.moderation === "held",
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const newestFirst = [desc(comments.createdAt), desc(comments.id)];
/** A comment a moderator hid or removed has left every public place. */
const isVisible = eq(comments.moderation, "visible");

/** A post's newest comments, the first page of any size: read again by a post's page after each new comment. */
const firstPage = preparedFor((db) =>
  select({ db })
    .where(and(eq(comments.postId, sql.placeholder("postId")), isVisible))
    .orderBy(...newestFirst)
    .limit(sql.placeholder("limit"))
    .prepare("first_comments"),
);

/** A post's comments, newest first. */
export async function listComments(
  deps: Pick<Deps, "db">,
  postId: string,
  query: { limit: number; cursor?: string | undefined },
) {
  const rows = query.cursor
    ? await select(deps)
        .where(and(eq(comments.postId, postId), isVisible, afterCursor(comments.createdAt, comments.id, query.cursor)))
        .orderBy(...newestFirst)
        .limit(query.limit + 1)
    : await firstPage(deps.db).execute({ postId, limit: query.limit + 1 });
  const page = toPage(rows, query.limit, (row) => [row.cursorAt, row.id]);
  return { items: page.items.map(toComment), nextCursor: page.nextCursor };
}

const COMMENT_NOT_FOUND = "Comment not found";

/** A comment by id, on a published post: every new comment answers with it, so it is built once. */
const publishedComment = preparedFor((db) =>
  select({ db })
    .innerJoin(posts, and(eq(posts.id, comments.postId), isPublished))
    .where(and(eq(comments.id, sql.placeholder("id")), isVisible))
    .prepare("published_comment"),
);

/**
 * A comment on a published post: one on a post taken back to draft is as hidden as its post. Its author (`viewerId`)
 * also sees it while the filter holds it, or after a moderator hid it.
 */
export async function getComment(deps: Pick<Deps, "db">, id: string, viewerId?: string) {
  // Every new comment answers with itself: the visible one comes from the prepared statement.
  let [row] = await publishedComment(deps.db).execute({ id });
  if (!row && viewerId) {
    [row] = await select(deps)
      .innerJoin(posts, and(eq(posts.id, comments.postId), isPublished))
      .where(and(eq(comments.id, id), eq(comments.userId, viewerId)));
  }
  if (!row) throw new HttpError(404, COMMENT_NOT_FOUND);
  return toComment(row);
}

/** A new comment, with its post's author to tell; nothing when the post is not published. */
const insertComment = statement<
  { postId: string; userId: string; description: string; moderation: "visible" | "held" },
  { id: string; author_id: string }
>(
  () => sql`
    insert into ${comments} (post_id, user_id, description, moderation)
    select ${posts.id}, ${sql.placeholder("userId")}, ${sql.placeholder("description")}, ${sql.placeholder("moderation")}::moderation_state from ${posts}
    where ${posts.id} = ${sql.placeholder("postId")} and ${isPublished}
    returning id, (select ${posts.userId} from ${posts} where ${posts.id} = ${sql.placeholder("postId")}) as author_id`,
);

/** Comments go on published posts only (a draft is answered as a missing post), checked in the insert itself. */
export async function createComment(
  deps: Pick<Deps, "db" | "config" | "mailer" | "bus" | "log" | "changed">,
  user: AuthUser,
  postId: string,
  description: string,
) {
  refuseLinksFromNewAccounts(user, { description });
  const verdict = await screenOrRefuse(deps, { description });
  const held = verdict.action === "hold";
  const [row] = await insertComment(deps.db, {
    postId,
    userId: user.id,
    description,
    moderation: held ? "held" : "visible",
  });
  if (!row) throw new HttpError(404, POST_NOT_FOUND);
  deps.changed(commentChanged(postId));
  // A held comment's post author hears of it once a moderator lets it through, if ever.
  if (held) await queueHeld(deps, { kind: "comment", id: row.id, subjectId: user.id }, verdict.terms);
  else await notify(deps, { kind: "comment", recipientId: row.author_id, actorId: user.id, postId });
  return getComment(deps, row.id, user.id);
}

/** A comment changes its post's comments and its count. */
const commentChanged = (postId: string) => [cacheTags.comments(postId), cacheTags.counts(postId)];

export async function updateComment(
  deps: Pick<Deps, "db" | "changed">,
  user: AuthUser,
  id: string,
  description: string,
) {
  const comment = await getComment(deps, id, user.id);
  if (comment.user.id !== user.id) throw new HttpError(403, "You can only edit your own comments");
  refuseLinksFromNewAccounts(user, { description });
  const verdict = await screenOrRefuse(deps, { description });
  const [edited] = await deps.db
    .update(comments)
    .set({
      description,
      updatedAt: new Date(),
      // An edit the filter holds waits for review; an edit never brings back what a moderator hid.
      ...(verdict.action === "hold"
        ? {
            moderation: sql`case when ${comments.moderation} = 'visible' then 'held'::moderation_state else ${comments.moderation} end`,
          }
        : {}),
    })
    .where(eq(comments.id, id))
    .returning({ moderation: comments.moderation });
  deps.changed(commentChanged(comment.postId));
  if (verdict.action === "hold" && edited?.moderation === "held" && !comment.waitingForReview)
    await queueHeld(deps, { kind: "comment", id, subjectId: user.id }, verdict.terms);
  return getComment(deps, id, user.id);
}

/** The comment's author or an admin may delete it, whatever became of its post. */
export async function deleteComment(deps: Pick<Deps, "db" | "changed">, user: AuthUser, id: string) {
  const [row] = await select(deps).where(eq(comments.id, id));
  if (!row) throw new HttpError(404, COMMENT_NOT_FOUND);
  const comment = toComment(row);
  if (comment.user.id !== user.id && !user.isAdmin) throw new HttpError(403, "You can only delete your own comments");
  await deps.db.delete(comments).where(eq(comments.id, id));
  deps.changed(commentChanged(comment.postId));
  return comment;
}
