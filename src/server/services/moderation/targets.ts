import { eq } from "drizzle-orm";
import type { ReportKind } from "#shared/schemas/moderation.ts";
import { excerpt, plainText } from "#shared/text.ts";
import type { Db } from "../../db/client.ts";
import { comments, posts, remoteReplies, users } from "../../db/schema.ts";

/** What a report or an action is about, as a moderator is shown it and as the rules need it. */
export interface Target {
  kind: ReportKind;
  id: string;
  /** The local person it is about: the author, or the user reported; null for a reply from the fediverse. */
  subjectId: string | null;
  /** The post it is or sits on. */
  postId: string | null;
  state: "visible" | "held" | "hidden" | "removed" | "limited";
  /** Whether anyone may see it now: published and visible. */
  isPublic: boolean;
  preview: { title: string; text: string; author: string; path: string };
}

const PREVIEW_CHARS = 280;
const fullName = (user: { firstName: string; lastName: string }) => `${user.firstName} ${user.lastName}`;

/** The item `kind` `id` in any state, or null when there is none. */
export async function findTarget(db: Db, kind: ReportKind, id: string): Promise<Target | null> {
  if (kind === "post") {
    const [row] = await db
      .select({ post: posts, author: users })
      .from(posts)
      .innerJoin(users, eq(users.id, posts.userId))
      .where(eq(posts.id, id));
    if (!row) return null;
    return {
      kind,
      id,
      subjectId: row.post.userId,
      postId: id,
      state: row.post.moderation,
      isPublic: row.post.status === "published" && row.post.moderation === "visible",
      preview: {
        title: row.post.title,
        text: excerpt(plainText(row.post.description), PREVIEW_CHARS),
        author: fullName(row.author),
        path: `/posts/${id}`,
      },
    };
  }
  if (kind === "comment") {
    const [row] = await db
      .select({
        comment: comments,
        author: users,
        post: { title: posts.title, status: posts.status, moderation: posts.moderation },
      })
      .from(comments)
      .innerJoin(users, eq(users.id, comments.userId))
      .innerJoin(posts, eq(posts.id, comments.postId))
      .where(eq(comments.id, id));
    if (!row) return null;
    return {
      kind,
      id,
      subjectId: row.comment.userId,
      postId: row.comment.postId,
      state: row.comment.moderation,
      isPublic:
        row.comment.moderation === "visible" && row.post.status === "published" && row.post.moderation === "visible",
      preview: {
        title: `A comment on “${row.post.title}”`,
        text: excerpt(row.comment.description, PREVIEW_CHARS),
        author: fullName(row.author),
        path: `/posts/${row.comment.postId}`,
      },
    };
  }
  if (kind === "user") {
    const [user] = await db.select().from(users).where(eq(users.id, id));
    if (!user) return null;
    return {
      kind,
      id,
      subjectId: user.id,
      postId: null,
      // A suspended account is hidden, a limited one limited; "restore" lifts either.
      state: user.suspendedAt ? "hidden" : user.limitedAt ? "limited" : "visible",
      isPublic: !user.isBlocked && !user.suspendedAt,
      preview: {
        title: fullName(user),
        text: excerpt(user.bio, PREVIEW_CHARS),
        author: fullName(user),
        path: `/profile/${id}`,
      },
    };
  }
  const [row] = await db
    .select({ reply: remoteReplies, post: { title: posts.title, status: posts.status, moderation: posts.moderation } })
    .from(remoteReplies)
    .innerJoin(posts, eq(posts.id, remoteReplies.postId))
    .where(eq(remoteReplies.id, id));
  if (!row) return null;
  return {
    kind,
    id,
    subjectId: null,
    postId: row.reply.postId,
    state: row.reply.moderation,
    isPublic:
      row.reply.status === "approved" &&
      row.reply.moderation === "visible" &&
      row.post.status === "published" &&
      row.post.moderation === "visible",
    preview: {
      title: `A reply from the fediverse to “${row.post.title}”`,
      text: excerpt(plainText(row.reply.content), PREVIEW_CHARS),
      author: `${row.reply.authorName} (${row.reply.authorHandle})`,
      path: `/posts/${row.reply.postId}`,
    },
  };
}
