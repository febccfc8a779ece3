import type { Comment } from "#shared/schemas/comments.ts";
import { comments } from "../../db/schema.ts";
import { toUserSummary, userSummaryColumns } from "./user-fields.ts";

/** A comment's columns with its author's summary: what `toComment` makes the API's shape of. */
export const commentColumns = {
  id: comments.id,
  postId: comments.postId,
  description: comments.description,
  importedAuthor: comments.importedAuthor,
  createdAt: comments.createdAt,
  updatedAt: comments.updatedAt,
  moderation: comments.moderation,
  author: userSummaryColumns,
};

export interface CommentRow {
  id: string;
  postId: string;
  description: string;
  importedAuthor: string | null;
  createdAt: Date;
  updatedAt: Date;
  moderation: string;
  author: { id: string; firstName: string; lastName: string; profilePhoto: string | null };
}

/** A comment as the API shows it (`GET /api/comments/{id}`), and its webhooks' events carry it. */
export const toComment = (row: CommentRow): Comment => ({
  _id: row.id,
  id: row.id,
  postId: row.postId,
  description: row.description,
  user: toUserSummary(row.author),
  importedAuthor: row.importedAuthor,
  waitingForReview: row.moderation === "held",
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});
