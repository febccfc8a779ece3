import { and, eq, inArray, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { FEATURED_FEE_WEI } from "../../../shared/constants.ts";
import { type PostUpdate, postInputSchema } from "../../../shared/schemas/posts.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { categories, payments, posts, reactions } from "../../db/schema.ts";
import { HttpError, validationError } from "../../http-error.ts";
import type { AuthUser } from "../../plugins/auth.ts";
import { processImage } from "../images.ts";
import { verifyPayment } from "../payments/verify-payment.ts";
import { hasContent, sanitizePostHtml } from "../sanitize.ts";
import { listComments } from "./comments.ts";
import { selectPosts, toPost } from "./post-queries.ts";

export async function getPost(app: FastifyInstance, id: string, viewerId: string | null) {
  const [row] = await selectPosts(app, viewerId, { where: eq(posts.id, id), limit: 1 });
  if (!row) throw new HttpError(404, "Post not found");
  return toPost(row);
}

/** A post as anyone sees it (no reader's own reaction), with its first page of comments. */
export async function getPostDetail(app: FastifyInstance, id: string) {
  const post = await getPost(app, id, null);
  const page = await listComments(app, id, { limit: 20 });
  return { ...post, comments: page.items, commentsNextCursor: page.nextCursor };
}

/** A reader's own reactions to some posts, in one query on the reactions key. */
export async function reactionsOf(app: FastifyInstance, userId: string, postIds: string[]) {
  if (postIds.length === 0) return new Map<string, "like" | "dislike">();
  const rows = await app.db
    .select({ postId: reactions.postId, kind: reactions.kind })
    .from(reactions)
    .where(and(inArray(reactions.postId, postIds), eq(reactions.userId, userId)));
  return new Map(rows.map((row) => [row.postId, row.kind]));
}

async function categoryId(app: FastifyInstance, title: string) {
  const [category] = await app.db
    .select({ id: categories.id })
    .from(categories)
    .where(sql`lower(${categories.title}) = lower(${title})`);
  if (!category) throw new HttpError(400, `The category "${title}" does not exist`);
  return category.id;
}

function cleanDescription(html: string) {
  const clean = sanitizePostHtml(html);
  if (!hasContent(clean)) throw validationError([{ path: ["description"], message: "Description is required" }]);
  return clean;
}

/**
 * Creates a post. A featured post's payment is verified on-chain first; its hash is claimed in the same transaction
 * that creates the post, so a hash serves one post only, even under parallel requests.
 */
export async function createPost(
  app: FastifyInstance,
  author: AuthUser,
  fields: Record<string, unknown>,
  upload: Buffer | undefined,
) {
  const parsed = postInputSchema.safeParse(fields);
  if (!parsed.success) throw validationError(parsed.error.issues);
  const input = parsed.data;
  const description = cleanDescription(input.description);
  const category = await categoryId(app, input.category);
  const payment = input.transectionHash
    ? await verifyPayment(app, {
        txHash: input.transectionHash,
        payerWallet: author.walletVerifiedAt ? author.walletAddress : null,
        recipient: app.config.feeRecipient,
        minAmountWei: FEATURED_FEE_WEI,
        what: "the featured-post fee",
      })
    : null;
  const image = upload ? await processImage(upload, "cover") : null;
  const imageUrl = image ? await app.storage.put(image.key, image.data, image.contentType) : null;
  try {
    const id = await app.db.transaction(async (tx) => {
      const [post] = await tx
        .insert(posts)
        .values({
          title: input.title,
          description,
          categoryId: category,
          image: imageUrl,
          isFeatured: input.isFeatured,
          userId: author.id,
        })
        .returning({ id: posts.id });
      if (!post) throw new Error("post was not created");
      if (payment) {
        await tx.insert(payments).values({
          ...payment,
          amountWei: payment.amountWei.toString(),
          purpose: "featured",
          userId: author.id,
          postId: post.id,
        });
      }
      return post.id;
    });
    return getPost(app, id, author.id);
  } catch (error) {
    if (imageUrl) await app.storage.remove(imageUrl).catch(() => {});
    if (isUniqueViolation(error, "payments_chain_tx_key")) {
      throw new HttpError(409, "This transaction hash was already used for a featured post.");
    }
    throw error;
  }
}

async function ownPost(app: FastifyInstance, user: AuthUser, id: string, action: string) {
  const [post] = await app.db.select({ userId: posts.userId, image: posts.image }).from(posts).where(eq(posts.id, id));
  if (!post) throw new HttpError(404, "Post not found");
  if (post.userId !== user.id) throw new HttpError(403, `You can only ${action} your own posts`);
  return post;
}

export async function updatePost(app: FastifyInstance, user: AuthUser, id: string, input: PostUpdate) {
  await ownPost(app, user, id, "edit");
  await app.db
    .update(posts)
    .set({
      title: input.title,
      description: cleanDescription(input.description),
      categoryId: await categoryId(app, input.category),
      updatedAt: new Date(),
    })
    .where(eq(posts.id, id));
  return getPost(app, id, user.id);
}

/** Comments, reactions and views go with the post (foreign keys cascade); its cover image is removed. */
export async function deletePost(app: FastifyInstance, user: AuthUser, id: string) {
  const post = await ownPost(app, user, id, "delete");
  const deleted = await getPost(app, id, user.id);
  await app.db.delete(posts).where(eq(posts.id, id));
  if (post.image)
    await app.storage.remove(post.image).catch((error) => app.log.warn({ err: error }, "cover not removed"));
  return deleted;
}

/**
 * Likes and dislikes are exclusive and toggle. A per-(post, user) transaction lock serialises one user's clicks, and
 * counts are always counted from the rows, so they stay exact under any concurrency.
 */
export async function react(app: FastifyInstance, user: AuthUser, postId: string, kind: "like" | "dislike") {
  await app.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${postId}:${user.id}`}, 0))`);
    const [post] = await tx.select({ id: posts.id }).from(posts).where(eq(posts.id, postId));
    if (!post) throw new HttpError(404, "Post not found");
    const where = and(eq(reactions.postId, postId), eq(reactions.userId, user.id));
    const [current] = await tx.select({ kind: reactions.kind }).from(reactions).where(where);
    if (current?.kind === kind) await tx.delete(reactions).where(where);
    else if (current) await tx.update(reactions).set({ kind }).where(where);
    else await tx.insert(reactions).values({ postId, userId: user.id, kind });
  });
  return getPost(app, postId, user.id);
}
