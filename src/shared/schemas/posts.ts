import { POST_DESCRIPTION_MAX, POST_TITLE_MAX, TX_HASH_REGEX } from "../constants.ts";
import { z } from "../zod.ts";
import { commentSchema } from "./comments.ts";
import { postProvenanceSummarySchema } from "./provenance.ts";
import { tipTotalsSchema } from "./tips.ts";
import { uploadSchema } from "./upload.ts";
import { userSummarySchema } from "./users.ts";

/** Posts. The messages are docs/specification.md §Validation rules, word for word. */

const required = (message: string) => z.string({ error: message }).check(z.trim(), z.minLength(1, message));

export const TX_HASH_MESSAGE = "Transaction Hash must be exactly 66 characters long and start with '0x'";

const postFields = {
  title: required("Title is required").check(z.maxLength(POST_TITLE_MAX, "Title is at most 200 characters")),
  /** Rich HTML from the editor; the server sanitises it. */
  description: required("Description is required").check(z.maxLength(POST_DESCRIPTION_MAX, "Description is too long")),
  /** The category's title, as the dropdown sends it (docs/specification.md §Create Blog). */
  category: required("Category is required"),
};

export const POST_STATUSES = ["published", "draft", "scheduled"] as const;
export type PostStatus = (typeof POST_STATUSES)[number];
export const PUBLISH_AT_MESSAGE = "Choose a date and time in the future";

/**
 * What the author's button asks for: publish now (the spec's button; the default), keep as a draft, or publish at
 * `publishAt` (an ISO instant; the form turns the author's local time into one).
 */
const publishingFields = {
  status: z.optional(z.enum(POST_STATUSES, { error: "Status must be published, draft or scheduled" })),
  publishAt: z.optional(z.string().check(z.trim())),
};

/** A schedule needs a time to come; a time sent with another status is dropped. */
const withScheduleRule = <T extends z.ZodMiniType<{ status?: PostStatus | undefined; publishAt?: string | undefined }>>(
  schema: T,
) =>
  z.pipe(
    schema.check(
      z.superRefine((post, ctx) => {
        if (post.status !== "scheduled") return;
        const at = Date.parse(post.publishAt ?? "");
        if (Number.isNaN(at) || at <= Date.now()) {
          ctx.addIssue({ code: "custom", path: ["publishAt"], message: PUBLISH_AT_MESSAGE });
        }
      }),
    ),
    z.transform(({ publishAt, ...post }: z.output<T>) => ({
      ...post,
      publishAt: post.status === "scheduled" && publishAt ? new Date(publishAt).toISOString() : undefined,
    })),
  );

const featuredFields = {
  ...postFields,
  ...publishingFields,
  isFeatured: z.pipe(
    z.union([z.boolean(), z.enum(["true", "false"])], { error: "Featured is required" }),
    z.transform((value) => value === true || value === "true"),
  ),
  transectionHash: z.optional(z.string().check(z.trim())),
};

/**
 * A featured post needs its payment's hash (docs/specification.md §Create Blog, §Validation rules); a hash sent with an
 * unfeatured post is dropped.
 */
const withFeeRule = <T extends z.ZodMiniType<{ isFeatured: boolean; transectionHash?: string | undefined }>>(
  schema: T,
) =>
  z.pipe(
    schema.check(
      z.superRefine((post, ctx) => {
        if (post.isFeatured && !TX_HASH_REGEX.test(post.transectionHash ?? "")) {
          ctx.addIssue({ code: "custom", path: ["transectionHash"], message: TX_HASH_MESSAGE });
        }
      }),
    ),
    z.transform(({ transectionHash, ...post }: z.output<T>) => ({
      ...post,
      transectionHash: post.isFeatured ? transectionHash : undefined,
    })),
  );

/** Create Blog; multipart sends every field as text, so isFeatured arrives as "true"/"false". */
export const postInputSchema = withScheduleRule(withFeeRule(z.object(featuredFields)));

/** The body of `POST /api/posts`: the form's fields and an optional cover image (multipart), or JSON without one. */
export const createPostBodySchema = withScheduleRule(
  withFeeRule(z.object({ ...featuredFields, image: z.optional(uploadSchema("The cover must be an image file")) })),
);
export type CreatePostBody = z.output<typeof createPostBodySchema>;
export type PostInput = z.input<typeof postInputSchema>;

/** Edit post: the whole form object may be sent; only these fields change (no status: it stays as it is). */
export const postUpdateSchema = withScheduleRule(z.object({ ...postFields, ...publishingFields }));
export type PostUpdate = z.output<typeof postUpdateSchema>;

export const postIdParamsSchema = z.object({ id: z.uuid("Invalid post id") });
export const reactionInputSchema = z.object({ postId: z.uuid("postId must be a post id") });

/** A signed-in reader's browser refreshing a server-rendered post sends `counted=1`: the page counted the view. */
export const postReadQuerySchema = z.object({ counted: z.optional(z.literal("1")) });

export const postListQuerySchema = z.object({
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 20),
  cursor: z.optional(z.string().check(z.maxLength(300))),
  category: z.optional(z.string().check(z.trim(), z.maxLength(60))),
  author: z.optional(z.uuid("author must be a user id")),
  /** The signed-in reader's Following feed: posts of the authors they follow, newest first. */
  following: z.optional(z.literal("true", { error: "following must be true" })),
  /** Full-text search (docs/product.md, "Search, drafts and scheduled posts"): words, "quoted phrases", -excluded words; ranked by relevance. */
  q: z.optional(z.string().check(z.trim(), z.maxLength(200, "Search for at most 200 characters"))),
});
export type PostListQuery = z.infer<typeof postListQuerySchema>;

export const postSchema = z.object({
  _id: z.string(),
  id: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  image: z.nullable(z.string()),
  isFeatured: z.boolean(),
  transectionHash: z.nullable(z.string()),
  user: userSummarySchema,
  likesCount: z.int(),
  disLikesCount: z.int(),
  viewerReaction: z.nullable(z.enum(["like", "dislike"])),
  numViews: z.int(),
  commentsCount: z.int(),
  /** Only ever "published" for anyone but the author. */
  status: z.enum(POST_STATUSES),
  /**
   * Set while the filter holds it for review, or once a moderator hid or removed it: only its author sees it then,
   * with the reason.
   */
  moderation: z._default(
    z.nullable(z.object({ state: z.enum(["held", "hidden", "removed", "limited"]), reason: z.string() })),
    null,
  ),
  /** When it was published, or (scheduled) will be; null for a draft. */
  publishedAt: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Its latest revision and the author's wallet that signed it, if any (docs/provenance.md); null: none kept. */
  provenance: z._default(postProvenanceSummarySchema, null),
  /** Search results only: a short piece of the text, its matching words marked. Text, never HTML. */
  excerpt: z.optional(z.array(z.object({ text: z.string(), match: z.boolean() }))),
});
export type Post = z.infer<typeof postSchema>;
export type ExcerptPart = NonNullable<Post["excerpt"]>[number];

export const postDetailSchema = z.extend(postSchema, {
  comments: z.array(commentSchema),
  commentsNextCursor: z.nullable(z.string()),
  /** Readers' tips to its author for it (docs/product.md, "Following, notifications and tips"). */
  tips: tipTotalsSchema,
  /** The author's verified wallet, where tips go; null: they cannot be tipped yet. */
  authorWallet: z.nullable(z.string()),
});
export type PostDetail = z.infer<typeof postDetailSchema>;
