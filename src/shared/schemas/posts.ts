import { z } from "zod";
import { TX_HASH_REGEX } from "../constants.ts";
import { commentSchema } from "./comments.ts";
import { uploadSchema } from "./upload.ts";
import { userSummarySchema } from "./users.ts";

/** Posts. The messages are the spec's (§5 "Validation rules"), word for word. */

const required = (message: string) => z.string({ error: message }).trim().min(1, message);

export const TX_HASH_MESSAGE = "Transaction Hash must be exactly 66 characters long and start with '0x'";

const postFields = {
  title: required("Title is required").max(200, "Title is at most 200 characters"),
  /** Rich HTML from the editor; the server sanitises it. */
  description: required("Description is required").max(100_000, "Description is too long"),
  /** The category's title, as the spec's dropdown sends it. */
  category: required("Category is required"),
};

const featuredFields = {
  ...postFields,
  isFeatured: z
    .union([z.boolean(), z.enum(["true", "false"])], { error: "Featured is required" })
    .transform((value) => value === true || value === "true"),
  transectionHash: z.string().trim().optional(),
};

/** A featured post needs its payment's hash (spec §2 "Create Blog", §5); a hash sent with an unfeatured post is dropped. */
const withFeeRule = <T extends z.ZodType<{ isFeatured: boolean; transectionHash?: string | undefined }>>(schema: T) =>
  schema
    .superRefine((post, ctx) => {
      if (post.isFeatured && !TX_HASH_REGEX.test(post.transectionHash ?? "")) {
        ctx.addIssue({ code: "custom", path: ["transectionHash"], message: TX_HASH_MESSAGE });
      }
    })
    .transform(({ transectionHash, ...post }) => ({
      ...post,
      transectionHash: post.isFeatured ? transectionHash : undefined,
    }));

/** Create Blog; multipart sends every field as text, so isFeatured arrives as "true"/"false". */
export const postInputSchema = withFeeRule(z.object(featuredFields));

/** The body of `POST /api/posts`: the form's fields and an optional cover image (multipart), or JSON without one. */
export const createPostBodySchema = withFeeRule(
  z.object({ ...featuredFields, image: uploadSchema("The cover must be an image file").optional() }),
);
export type CreatePostBody = z.output<typeof createPostBodySchema>;
export type PostInput = z.input<typeof postInputSchema>;

/** Edit post: the whole form object may be sent; only these fields change. */
export const postUpdateSchema = z.object(postFields);
export type PostUpdate = z.infer<typeof postUpdateSchema>;

export const postIdParamsSchema = z.object({ id: z.uuid("Invalid post id") });
export const reactionInputSchema = z.object({ postId: z.uuid("postId must be a post id") });

/** A signed-in reader's browser refreshing a server-rendered post sends `counted=1`: the page counted the view. */
export const postReadQuerySchema = z.object({ counted: z.literal("1").optional() });

export const postListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(300).optional(),
  category: z.string().trim().max(60).optional(),
  author: z.uuid("author must be a user id").optional(),
});
export type PostListQuery = z.infer<typeof postListQuerySchema>;

export const postSchema = z.object({
  _id: z.string(),
  id: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  image: z.string().nullable(),
  isFeatured: z.boolean(),
  transectionHash: z.string().nullable(),
  user: userSummarySchema,
  likesCount: z.number().int(),
  disLikesCount: z.number().int(),
  viewerReaction: z.enum(["like", "dislike"]).nullable(),
  numViews: z.number().int(),
  commentsCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Post = z.infer<typeof postSchema>;

export const postDetailSchema = postSchema.extend({
  comments: z.array(commentSchema),
  commentsNextCursor: z.string().nullable(),
});
export type PostDetail = z.infer<typeof postDetailSchema>;
