import { eq, sql } from "drizzle-orm";
import { FEATURED_FEE_WEI } from "#shared/constants.ts";
import type { CreatePostBody, PostStatus, PostUpdate } from "#shared/schemas/posts.ts";
import { plainText } from "#shared/text.ts";
import { categories, posts } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { type AuthUser, payingWallet } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { queuePostActivity } from "../core/federation-queue.ts";
import { removeImage, storeImage } from "../core/images.ts";
import { limitNewAccountPosts } from "../core/new-accounts.ts";
import { POST_NOT_FOUND } from "../core/post-queries.ts";
import { cacheTags } from "../core/tags.ts";
import { screenOrRefuse } from "../moderation/filter.ts";
import { HELD_FOR_REVIEW, heldFor, isHeldForReview, queueHeld } from "../moderation/reports.ts";
import { announceNewPost, fanOutNewPost } from "../notifications/fan-out.ts";
import { claimPayment } from "../payments/claim.ts";
import { verifyPayment } from "../payments/verify-payment.ts";
import { recordRevision } from "../provenance/revisions.ts";
import { postEvent } from "../webhooks/post-events.ts";
import { cleanDescription, writeNewPost } from "./new-posts.ts";
import { getPost } from "./shown-posts.ts";

/**
 * The columns an author's button sets: publish now (a post published before keeps its date), keep as a draft, or
 * publish at a time to come. No status: as it is.
 */
function publishing(input: { status?: PostStatus | undefined; publishAt?: string | undefined }) {
  switch (input.status) {
    case "draft":
      return { status: "draft" as const, publishedAt: null };
    case "scheduled":
      return { status: "scheduled" as const, publishedAt: new Date(input.publishAt as string) };
    case "published":
      return {
        status: "published" as const,
        publishedAt: sql`case when ${posts.status} = 'published' then ${posts.publishedAt} else now() end`,
      };
    default:
      return {};
  }
}

async function categoryId(deps: Pick<Deps, "db">, title: string) {
  const [category] = await deps.db
    .select({ id: categories.id })
    .from(categories)
    .where(sql`lower(${categories.title}) = lower(${title})`);
  if (!category) throw new HttpError(400, `The category "${title}" does not exist`);
  return category.id;
}

/**
 * docs/specification.md §Create Blog. A featured post's payment is verified on-chain first; its hash is claimed in the
 * same transaction that creates the post, so a hash serves one post only, even under parallel requests.
 */
export async function createPost(
  deps: Pick<Deps, "chain" | "config" | "db" | "log" | "storage" | "mailer" | "bus" | "changed">,
  author: AuthUser,
  input: CreatePostBody,
) {
  // The cheap refusals before the chain is asked and the cover stored; the writer checks them again.
  await screenOrRefuse(deps, { title: input.title, description: plainText(cleanDescription(input.description)) });
  if ((input.status ?? "published") === "published") await limitNewAccountPosts(deps, author);
  const category = await categoryId(deps, input.category);
  const payment = input.transectionHash
    ? await verifyPayment(deps, {
        txHash: input.transectionHash,
        payerWallet: payingWallet(author),
        recipient: deps.config.feeRecipient,
        minAmountWei: FEATURED_FEE_WEI,
        what: "the featured-post fee",
      })
    : null;
  const imageUrl = input.image ? await storeImage(deps.storage, input.image, "cover") : null;
  try {
    const { id } = await writeNewPost(
      deps,
      author,
      {
        title: input.title,
        description: input.description,
        categoryId: category,
        image: imageUrl,
        isFeatured: input.isFeatured,
        status: input.status ?? "published",
        publishAt: input.publishAt ? new Date(input.publishAt) : undefined,
      },
      {
        alongside: async (tx, postId) => {
          if (payment) await claimPayment(tx, payment, { purpose: "featured", userId: author.id, postId });
        },
      },
    );
    return getPost(deps, id, author.id);
  } catch (error) {
    if (imageUrl) await removeImage(deps.storage, imageUrl, "cover").catch(() => {});
    throw error;
  }
}

/** A post was written: it, and every list it may join or leave. */
const postChanged = (id: string) => [cacheTags.posts, cacheTags.post(id)];

async function ownPost(deps: Pick<Deps, "db">, user: AuthUser, id: string, action: string) {
  const [post] = await deps.db
    .select({ userId: posts.userId, image: posts.image, status: posts.status, moderation: posts.moderation })
    .from(posts)
    .where(eq(posts.id, id));
  if (!post) throw new HttpError(404, POST_NOT_FOUND);
  if (post.userId !== user.id) throw new HttpError(403, `You can only ${action} your own posts`);
  return post;
}

export async function updatePost(
  deps: Pick<Deps, "db" | "config" | "mailer" | "bus" | "log" | "changed" | "storage">,
  user: AuthUser,
  id: string,
  input: PostUpdate,
) {
  const before = await ownPost(deps, user, id, "edit");
  const description = cleanDescription(input.description);
  const verdict = await screenOrRefuse(deps, { title: input.title, description: plainText(description) });
  // An edit the filter holds takes a visible post out of public places until a moderator looks; an edit never
  // brings back what a moderator hid or removed.
  const heldNow = isHeldForReview(verdict, null) && before.moderation === "visible";
  if (before.status !== "published" && input.status === "published") await limitNewAccountPosts(deps, user);
  const moderation = heldNow ? "held" : before.moderation;
  const category = await categoryId(deps, input.category);
  const fannedOut = await deps.db.transaction(async (tx) => {
    await tx
      .update(posts)
      .set({
        title: input.title,
        description,
        categoryId: category,
        ...publishing(input),
        ...(heldNow ? HELD_FOR_REVIEW : {}),
        updatedAt: new Date(),
      })
      .where(eq(posts.id, id));
    // Published after the edit: the edit is its next revision (docs/provenance.md).
    await recordRevision(deps, tx, id);
    // A post public now and not before reaches its author's followers (once per post, ever); the fediverse hears of
    // an edit of a public post, and of one taken back to a draft, a later time or review as its deletion.
    const publicBefore = before.status === "published" && before.moderation === "visible";
    const publicAfter = (input.status ?? "published") === "published" && moderation === "visible";
    const publishedNow = !publicBefore && publicAfter && before.status !== "published";
    const stillPublished = publicBefore && publicAfter;
    const unpublished = publicBefore && !publicAfter;
    const federated = { db: tx, config: deps.config };
    if (stillPublished) {
      await queuePostActivity(federated, { action: "update", postId: id, authorId: user.id });
      await postEvent(tx, "updated", id, user.id);
    }
    if (unpublished) {
      await queuePostActivity(federated, { action: "delete", postId: id, authorId: user.id });
      await postEvent(tx, "unpublished", id, user.id);
    }
    if (!publishedNow) return null;
    await queuePostActivity(federated, { action: "create", postId: id, authorId: user.id });
    await postEvent(tx, "published", id, user.id);
    return fanOutNewPost({ db: tx, config: deps.config }, id);
  });
  deps.changed(postChanged(id));
  if (heldNow) await queueHeld(deps, { kind: "post", id, subjectId: user.id }, heldFor(user, verdict.terms));
  if (fannedOut) announceNewPost(deps, id, fannedOut);
  return getPost(deps, id, user.id);
}

/** Comments, reactions and views go with the post (foreign keys cascade); its cover image is removed. */
export async function deletePost(
  deps: Pick<Deps, "db" | "config" | "log" | "storage" | "changed">,
  user: AuthUser,
  id: string,
) {
  const post = await ownPost(deps, user, id, "delete");
  const deleted = await getPost(deps, id, user.id);
  await deps.db.transaction(async (tx) => {
    await tx.delete(posts).where(eq(posts.id, id));
    if (post.status === "published") {
      await queuePostActivity({ db: tx, config: deps.config }, { action: "delete", postId: id, authorId: user.id });
      if (post.moderation === "visible") await postEvent(tx, "deleted", id, user.id);
    }
  });
  deps.changed(postChanged(id));
  if (post.image)
    await removeImage(deps.storage, post.image, "cover").catch((error) =>
      deps.log.warn({ err: error }, "cover not removed"),
    );
  return deleted;
}
