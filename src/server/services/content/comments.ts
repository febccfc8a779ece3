import { and, desc, eq, sql } from "drizzle-orm";
import { CANNOT_COMMENT } from "#shared/schemas/blocks.ts";
import { comments, posts, users } from "../../db/schema.ts";
import { preparedFor, statement } from "../../db/statement.ts";
import { HttpError } from "../../http-error.ts";
import { afterCursor, cursorKey, toPage } from "../../infra/cursor.ts";
import { refuseIfBlocked } from "../blocks/blocks.ts";
import type { AuthUser } from "../core/auth-user.ts";
import { commentColumns, toComment } from "../core/comment-fields.ts";
import type { Deps } from "../core/deps.ts";
import { refuseLinksFromNewAccounts } from "../core/new-accounts.ts";
import { isReachable, POST_NOT_FOUND } from "../core/post-queries.ts";
import { cacheTags, NOTHING_PUBLIC } from "../core/tags.ts";
import { screenOrRefuse } from "../moderation/filter.ts";
import { heldFor, isHeldForReview, queueHeld } from "../moderation/reports.ts";
import { notify } from "../notifications/notify.ts";
import { commentsGone, commentsShown } from "../webhooks/comment-events.ts";
import { listensIn } from "../webhooks/events.ts";

const select = (deps: Pick<Deps, "db">) =>
  deps.db
    .select({ ...commentColumns, cursorAt: cursorKey(comments.createdAt) })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.userId));

const newestFirst = [desc(comments.createdAt), desc(comments.id)];
/** A comment a moderator hid or removed (or its post's author's block hid) has left every public place. */
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
    .innerJoin(posts, and(eq(posts.id, comments.postId), isReachable))
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
      .innerJoin(posts, and(eq(posts.id, comments.postId), isReachable))
      .where(and(eq(comments.id, id), eq(comments.userId, viewerId)));
  }
  if (!row) throw new HttpError(404, COMMENT_NOT_FOUND);
  return toComment(row);
}

/**
 * A new comment, with its post's author to tell; nothing when the post is not published or its author blocked the
 * commenter. It waits (held) when the filter or a moderator's limit says so, and, for now, on the post of an author who
 * holds first-time commenters (`letThroughKnown` then looks at the commenter's earlier comments: kept out of this
 * statement, whose every comment would otherwise pay for planning that look).
 */
const insertComment = statement<
  { postId: string; userId: string; description: string; moderation: "visible" | "held" },
  { id: string; author_id: string; moderation: "visible" | "held" }
>(() => {
  const commenter = sql`${sql.placeholder("userId")}::uuid`;
  return sql`
    insert into ${comments} (post_id, user_id, description, moderation)
    select ${posts.id}, ${commenter}, ${sql.placeholder("description")},
      case when ${posts.userId} <> ${commenter}
        and (select a.hold_first_comments from ${users} a where a.id = ${posts.userId}) then 'held'
        else ${sql.placeholder("moderation")} end::moderation_state
    from ${posts}
    where ${posts.id} = ${sql.placeholder("postId")} and ${isReachable}
      and ${commenter} <> all (select b.blocked_id from user_blocks b where b.blocker_id = ${posts.userId})
    returning id, (select ${posts.userId} from ${posts} where ${posts.id} = ${sql.placeholder("postId")}) as author_id, moderation`;
});

/**
 * A new comment in one statement when it needs nothing more: the post is published and its author did not block the
 * commenter; it is held when the filter says so, or when the author holds first-time commenters and this one has no
 * comment shown on their posts yet. None goes in when it would be shown and someone's webhooks hear of such comments:
 * that event must be queued in the comment's own transaction (`createComment` then takes the longer way, as it does
 * for a refusal). The answer is the comment with its author, as `getComment` reads it.
 */
const insertQuietComment = statement<
  { postId: string; userId: string; description: string; moderation: "visible" | "held" },
  {
    id: string;
    post_id: string;
    description: string;
    imported_author: string | null;
    created_at: Date | string;
    updated_at: Date | string;
    moderation: "visible" | "held";
    author_id: string;
    first_name: string;
    last_name: string;
    profile_photo: string | null;
    post_author_id: string;
  }
>(() => {
  const commenter = sql`${sql.placeholder("userId")}::uuid`;
  return sql`
    with post as (
      select ${posts.id} as id, ${posts.userId} as author_id from ${posts}
      where ${posts.id} = ${sql.placeholder("postId")} and ${isReachable}
        and ${commenter} <> all (select b.blocked_id from user_blocks b where b.blocker_id = ${posts.userId})),
    decided as (
      select post.id, post.author_id,
        case when ${sql.placeholder("moderation")}::moderation_state = 'held' then 'held'
          when post.author_id <> ${commenter}
            and (select a.hold_first_comments from ${users} a where a.id = post.author_id)
            and not exists (select 1 from ${comments} c join ${posts} p on p.id = c.post_id
              where c.user_id = ${commenter} and p.user_id = post.author_id and c.moderation = 'visible') then 'held'
          else 'visible' end::moderation_state as moderation
      from post),
    inserted as (
      insert into ${comments} (post_id, user_id, description, moderation)
      select decided.id, ${commenter}, ${sql.placeholder("description")}, decided.moderation from decided
      where decided.moderation = 'held' or not ${listensIn("comment.created", sql`decided.author_id`)}
      returning id, post_id, description, imported_author, created_at, updated_at, moderation)
    select inserted.*, u.id as author_id, u.first_name, u.last_name, u.profile_photo,
      (select decided.author_id from decided) as post_author_id
    from inserted join ${users} u on u.id = ${commenter}`;
});

const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/** A comment held for its post's author goes through when its commenter had one shown on their posts before. */
async function letThroughKnown(deps: Pick<Deps, "db">, id: string, userId: string, authorId: string) {
  const [known] = await deps.db
    .update(comments)
    .set({ moderation: "visible" })
    .where(
      and(
        eq(comments.id, id),
        sql`exists (select 1 from ${comments} c join ${posts} p on p.id = c.post_id
          where c.user_id = ${userId} and p.user_id = ${authorId} and c.moderation = 'visible')`,
      ),
    )
    .returning({ id: comments.id });
  return Boolean(known);
}

/** Why no comment went in: the post is not there for the commenter, or its author blocked them. */
async function refusal(deps: Pick<Deps, "db">, userId: string, postId: string) {
  const [post] = await deps.db
    .select({ authorId: posts.userId })
    .from(posts)
    .where(and(eq(posts.id, postId), isReachable));
  if (post) await refuseIfBlocked(deps, { ownerId: post.authorId, actorId: userId }, CANNOT_COMMENT);
  return new HttpError(404, POST_NOT_FOUND);
}

/** A comment edited or removed changes its post's comments (on every page at once) and its count. */
const commentChanged = (postId: string) => [cacheTags.comments(postId), cacheTags.counts(postId)];
/** A new one is on the API's answers at once and on rendered pages within seconds (decision 019). */
const commentAdded = (postId: string) => [cacheTags.newComment(postId), cacheTags.counts(postId)];

/** Comments go on published posts only (a draft is answered as a missing post), checked in the insert itself. */
export async function createComment(
  deps: Pick<Deps, "db" | "config" | "mailer" | "bus" | "log" | "changed">,
  user: AuthUser,
  postId: string,
  description: string,
) {
  refuseLinksFromNewAccounts(user, { description });
  const verdict = await screenOrRefuse(deps, { description });
  const held = isHeldForReview(verdict, user);
  const values = { postId, userId: user.id, description, moderation: held ? ("held" as const) : ("visible" as const) };
  const [quiet] = await insertQuietComment(deps.db, values);
  if (quiet) {
    deps.changed(commentAdded(postId));
    await toldOfComment(deps, user, { id: quiet.id, authorId: quiet.post_author_id, postId }, held, verdict.terms);
    return toComment({
      id: quiet.id,
      postId: quiet.post_id,
      description: quiet.description,
      importedAuthor: quiet.imported_author,
      createdAt: asDate(quiet.created_at),
      updatedAt: asDate(quiet.updated_at),
      moderation: quiet.moderation,
      author: {
        id: quiet.author_id,
        firstName: quiet.first_name,
        lastName: quiet.last_name,
        profilePhoto: quiet.profile_photo,
      },
    });
  }
  const row = await deps.db.transaction(async (tx) => {
    const [row] = await insertComment(tx, {
      postId,
      userId: user.id,
      description,
      moderation: held ? "held" : "visible",
    });
    if (!row) return null;
    const shown =
      row.moderation === "visible" || (!held && (await letThroughKnown({ db: tx }, row.id, user.id, row.author_id)));
    // The post's author's webhooks hear of a comment the API shows; a held one is no event until let through.
    if (shown) await commentsShown(tx, [row.id]);
    return row;
  });
  if (!row) throw await refusal(deps, user.id, postId);
  deps.changed(commentAdded(postId));
  await toldOfComment(deps, user, { id: row.id, authorId: row.author_id, postId }, held, verdict.terms);
  return getComment(deps, row.id, user.id);
}

/**
 * What the filter or a limit held waits for a moderator, and its post's author hears of it once let through. A
 * first-time commenter's waits for the author, who is told so they can approve it.
 */
async function toldOfComment(
  deps: Pick<Deps, "db" | "config" | "mailer" | "bus" | "log">,
  user: AuthUser,
  comment: { id: string; authorId: string; postId: string },
  held: boolean,
  terms: string[],
) {
  if (held) await queueHeld(deps, { kind: "comment", id: comment.id, subjectId: user.id }, heldFor(user, terms));
  else await notify(deps, { kind: "comment", recipientId: comment.authorId, actorId: user.id, postId: comment.postId });
}

/**
 * Comments on the author's post that wait for them: a first-time commenter's, when the author holds those. What
 * waits for a moderator (the filter's, a limited account's: an open report) is not theirs to let through.
 */
const waitingForAuthor = (authorId: string) =>
  and(
    eq(comments.moderation, "held"),
    sql`exists (select 1 from ${posts} p where p.id = ${comments.postId} and p.user_id = ${authorId})`,
    sql`not exists (select 1 from reports r where r.target_kind = 'comment' and r.target_id = ${comments.id} and r.status = 'open')`,
  );

export async function listWaitingComments(deps: Pick<Deps, "db">, author: AuthUser, postId: string) {
  const rows = await select(deps)
    .where(and(eq(comments.postId, postId), waitingForAuthor(author.id)))
    .orderBy(comments.createdAt)
    .limit(100);
  return { items: rows.map(toComment), nextCursor: null };
}

/** The post's author lets a first-time commenter's comment through, or declines it (it is deleted). */
export async function decideWaitingComment(
  deps: Pick<Deps, "db" | "config" | "mailer" | "bus" | "log" | "changed">,
  author: AuthUser,
  id: string,
  approve: boolean,
) {
  const where = and(eq(comments.id, id), waitingForAuthor(author.id));
  const [row] = await deps.db.transaction(async (tx) => {
    if (!approve) return tx.delete(comments).where(where).returning({ postId: comments.postId });
    const approved = await tx
      .update(comments)
      .set({ moderation: "visible" })
      .where(where)
      .returning({ id: comments.id, postId: comments.postId });
    // Shown at last: the post's author's webhooks hear of it now, once.
    await commentsShown(
      tx,
      approved.map((comment) => comment.id),
    );
    return approved;
  });
  if (!row) throw new HttpError(404, "No comment waits for you here");
  deps.changed(commentChanged(row.postId));
  return { approved: approve };
}

/** The author's choice: hold comments from first-time commenters until they approve them. */
export async function commentSettings(deps: Pick<Deps, "db">, user: AuthUser) {
  const [row] = await deps.db
    .select({ holdFirstComments: users.holdFirstComments })
    .from(users)
    .where(eq(users.id, user.id));
  return { holdFirstComments: row?.holdFirstComments ?? false };
}

export async function setCommentSettings(
  deps: Pick<Deps, "db" | "changed">,
  user: AuthUser,
  input: { holdFirstComments: boolean },
) {
  await deps.db.update(users).set({ holdFirstComments: input.holdFirstComments }).where(eq(users.id, user.id));
  deps.changed(NOTHING_PUBLIC);
  return commentSettings(deps, user);
}

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
      ...(isHeldForReview(verdict, null)
        ? {
            moderation: sql`case when ${comments.moderation} = 'visible' then 'held'::moderation_state else ${comments.moderation} end`,
          }
        : {}),
    })
    .where(eq(comments.id, id))
    .returning({ moderation: comments.moderation });
  deps.changed(commentChanged(comment.postId));
  if (isHeldForReview(verdict, null) && edited?.moderation === "held" && !comment.waitingForReview)
    await queueHeld(deps, { kind: "comment", id, subjectId: user.id }, heldFor(user, verdict.terms));
  return getComment(deps, id, user.id);
}

/** The comment's author or an admin may delete it, whatever became of its post. */
export async function deleteComment(deps: Pick<Deps, "db" | "changed">, user: AuthUser, id: string) {
  const [row] = await select(deps).where(eq(comments.id, id));
  if (!row) throw new HttpError(404, COMMENT_NOT_FOUND);
  const comment = toComment(row);
  if (comment.user.id !== user.id && !user.isAdmin) throw new HttpError(403, "You can only delete your own comments");
  await deps.db.transaction(async (tx) => {
    const [gone] = await tx.delete(comments).where(eq(comments.id, id)).returning({ id: comments.id });
    // Only a comment receivers could have read is told gone.
    if (gone && row.moderation === "visible") await commentsGone(tx, [{ id, postId: comment.postId }]);
  });
  deps.changed(commentChanged(comment.postId));
  return comment;
}
