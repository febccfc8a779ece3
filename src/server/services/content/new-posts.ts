import { eq, sql } from "drizzle-orm";
import type { PostStatus } from "#shared/schemas/posts.ts";
import { plainText } from "#shared/text.ts";
import type { Db } from "../../db/client.ts";
import { posts, users } from "../../db/schema.ts";
import { HttpError, validationError } from "../../http-error.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { queuePostActivity } from "../core/federation-queue.ts";
import { newAccountLimit, pastTheLimit } from "../core/new-accounts.ts";
import { hasContent, sanitizePostHtml } from "../core/sanitize.ts";
import { cacheTags } from "../core/tags.ts";
import { HELD_FOR_REVIEW, heldFor, isHeldForReview, queueHeld } from "../moderation/reports.ts";
import { screenInSlices } from "../moderation/screen-slices.ts";
import { announceNewPost, fanOutNewPost } from "../notifications/fan-out.ts";
import { recordRevision } from "../provenance/revisions.ts";
import { postEvent } from "../webhooks/post-events.ts";

/** A new post as any writer hands it over: the editor, an import, later an API token. */
export interface NewPost {
  title: string;
  /** HTML as written: sanitised here. */
  description: string;
  categoryId: string;
  /** A cover already stored. */
  image: string | null;
  isFeatured?: boolean;
  status: PostStatus;
  /** When a scheduled post goes out. */
  publishAt?: Date | undefined;
}

export interface NewPostOptions {
  /**
   * When it was first published elsewhere (an import): kept only when it is past, so a post cannot date itself above
   * every other; one to come makes the post scheduled for then.
   */
  publishedBefore?: Date | null;
  /** Old news (an import): its author's followers and the fediverse are not told. */
  quiet?: boolean;
  /** Past a new account's posts of the day: refused (the editor), or kept as a draft (an import, item by item). */
  overLimit?: "refuse" | "draft";
  /** A body with no text: refused (the editor), or kept as a draft for its author to finish (an import). */
  empty?: "refuse" | "draft";
  /** What is written with the post, in its transaction (a payment's claim, an import's rows). */
  alongside?: (tx: Db, postId: string) => Promise<void>;
}

/** What was written: the post, and where the rules put it. */
export interface WrittenPost {
  id: string;
  status: PostStatus;
  /** Waiting for a moderator (the filter's or a limited author's). */
  held: boolean;
  /** Kept as a draft: its author published their day's posts already. */
  drafted: boolean;
}

export function cleanDescription(html: string, empty: "refuse" | "draft" = "refuse") {
  const clean = sanitizePostHtml(html);
  if (!hasContent(clean) && empty === "refuse")
    throw validationError([{ path: ["description"], message: "Description is required" }]);
  return clean;
}

/** A suspended, blocked or leaving account writes nothing, whoever writes for it. */
export function refuseSilencedAuthor(author: AuthUser) {
  if (author.isBlocked || author.suspendedAt || author.closingAt || author.closedAt)
    throw new HttpError(403, "This account cannot publish");
}

/** The columns of the state asked for, with an earlier date kept only when it is past. */
function publishing(post: NewPost, before: Date | null | undefined) {
  if (post.status === "draft") return { status: "draft" as const, publishedAt: null };
  if (post.status === "scheduled") {
    const at = post.publishAt;
    if (!at || at.getTime() <= Date.now()) return { status: "draft" as const, publishedAt: null };
    return { status: "scheduled" as const, publishedAt: at };
  }
  if (before && before.getTime() > Date.now()) return { status: "scheduled" as const, publishedAt: before };
  // now(): the transaction's time, so a post published as it is created has publishedAt = createdAt.
  return { status: "published" as const, publishedAt: before ?? sql`now()` };
}

/**
 * The author as the write finds them, their row locked: a suspension either waits for the post (and hides it) or
 * is seen here, and a new account's writes count one after the other.
 */
async function lockedAuthor(tx: Db, author: AuthUser) {
  const [row] = await tx.select().from(users).where(eq(users.id, author.id)).for("update");
  if (!row) throw new HttpError(404, "No such account");
  refuseSilencedAuthor(row);
  return row;
}

/**
 * The one writer of new posts: every rule of what a post may be (sanitised, the filter, a limited author's held,
 * a new account's few a day, the publication state) is here, whoever writes.
 */
export async function writeNewPost(
  deps: Pick<Deps, "db" | "config" | "mailer" | "bus" | "log" | "changed" | "storage">,
  author: AuthUser,
  post: NewPost,
  options: NewPostOptions = {},
): Promise<WrittenPost> {
  refuseSilencedAuthor(author);
  const description = cleanDescription(post.description, post.status === "draft" ? options.empty : "refuse");
  // In slices, the event loop free between them: a long body does not hold the server while it is read.
  const verdict = await screenInSlices(deps, { title: post.title, description: plainText(description) });
  const asked = publishing(post, options.publishedBefore);
  const written = await deps.db.transaction(async (tx) => {
    const now = await lockedAuthor(tx, author);
    const held = isHeldForReview(verdict, now);
    let state = asked;
    let drafted = false;
    if (state.status === "published" && (await pastTheLimit(tx, deps.config, now))) {
      if (options.overLimit !== "draft") throw new HttpError(429, newAccountLimit(deps.config));
      state = { status: "draft", publishedAt: null };
      drafted = true;
    }
    const [row] = await tx
      .insert(posts)
      .values({
        title: post.title,
        description,
        categoryId: post.categoryId,
        image: post.image,
        isFeatured: post.isFeatured ?? false,
        userId: author.id,
        ...(held ? HELD_FOR_REVIEW : {}),
        ...state,
        // An earlier publication is also when it was last written.
        ...(state.status === "published" && options.publishedBefore ? { updatedAt: options.publishedBefore } : {}),
      })
      .returning({ id: posts.id });
    if (!row) throw new Error("post was not created");
    await options.alongside?.(tx, row.id);
    // Published now: its first revision is kept with it (docs/provenance.md).
    if (state.status === "published") await recordRevision(deps, tx, row.id);
    // Published at once: its author's followers are told in the same transaction, here and on the fediverse
    // (one the filter holds, once a moderator lets it through).
    const fannedOut = options.quiet ? null : await fanOutNewPost({ db: tx, config: deps.config }, row.id);
    if (!options.quiet && state.status === "published" && !held) {
      await queuePostActivity(
        { db: tx, config: deps.config },
        { action: "create", postId: row.id, authorId: author.id },
      );
      await postEvent(tx, "published", row.id, author.id);
    }
    return { id: row.id, status: state.status, held, drafted, fannedOut, author: now };
  });
  deps.changed(options.quiet ? [cacheTags.post(written.id)] : [cacheTags.posts, cacheTags.post(written.id)]);
  if (written.held)
    await queueHeld(
      deps,
      { kind: "post", id: written.id, subjectId: author.id },
      heldFor(written.author, verdict.terms),
    );
  if (written.fannedOut) announceNewPost(deps, written.id, written.fannedOut);
  return { id: written.id, status: written.status, held: written.held, drafted: written.drafted };
}
