import { COMMENT_MAX } from "../constants.ts";
import { z } from "../zod.ts";
import { userSummarySchema } from "./users.ts";

const description = z
  .string({ error: "Description is required" })
  .check(
    z.trim(),
    z.minLength(1, "Description is required"),
    z.maxLength(COMMENT_MAX, "Comments are at most 5000 characters"),
  );

export const commentInputSchema = z.object({ description, postId: z.uuid("postId must be a post id") });
export const commentUpdateSchema = z.object({ description });
export const commentIdParamsSchema = z.object({ id: z.uuid("Invalid comment id") });

export const commentSchema = z.object({
  _id: z.string(),
  id: z.string(),
  postId: z.string(),
  description: z.string(),
  user: userSummarySchema,
  /** An imported comment's original writer (its row belongs to the post's author), or null. */
  importedAuthor: z._default(z.nullable(z.string()), null),
  /** The filter holds it until a moderator approves it; only its author is told so. */
  waitingForReview: z._default(z.boolean(), false),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Comment = z.infer<typeof commentSchema>;

/** An author's choice: comments from people who never had one shown on their posts wait for the author. */
export const commentSettingsSchema = z.object({
  holdFirstComments: z.boolean({ error: "Say whether to hold first-time commenters' comments" }),
});
export type CommentSettings = z.infer<typeof commentSettingsSchema>;
