import { and, eq } from "drizzle-orm";
import { oneLine, plainText } from "#shared/text.ts";
import { comments, importedItems, importedProvenance, postRedirects, users } from "../../db/schema.ts";
import { refuseSilencedAuthor, writeNewPost } from "../content/new-posts.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { isNewAccount, LINK, newAccountLimit } from "../core/new-accounts.ts";
import { screen } from "../moderation/filter.ts";
import { HELD_FOR_REVIEW, heldFor, isHeldForReview, queueHeld } from "../moderation/reports.ts";
import type { SubscriberImport } from "../subscribers/imported.ts";
import { type BringImage, cleanBody } from "./body.ts";
import { imageFailure } from "./images.ts";
import type { ImportedPost, ImportedSubscriber } from "./items.ts";
import { isOwnAddress } from "./redirects.ts";

type WriteDeps = Pick<Deps, "db" | "config" | "storage" | "mailer" | "bus" | "log" | "changed">;

/** Who an import writes for: its owner (whose "same file again" it is) and, per item, the author it maps to. */
export interface ImportTarget {
  ownerId: string;
  format: string;
  authorFor(name: string | null): Promise<{ id: string; name: string; limitedAt: Date | null }>;
  /** The category a post goes in, with why it is not the one the archive names. */
  categoryFor(title: string | null, warnings: string[]): Promise<string>;
  bringImage: BringImage;
  /** The list of subscribers' share: who may bring one, its caps, its report. */
  subscribers: SubscriberImport;
}

class AlreadyImported extends Error {}

/** What writing one item gave: done (new or already there), or done with the reasons some of it was left out. */
export interface ItemResult {
  created: boolean;
  warnings: string[];
  /** Why it was written as a draft though the archive had it otherwise. */
  draft?: string;
  held?: boolean;
}

const NUMERIC_ENTITY = /&#(x[0-9a-f]+|\d+);/gi;
export const decodeNumeric = (text: string) =>
  text.replace(NUMERIC_ENTITY, (_match, code: string) => {
    const point = code[0] === "x" || code[0] === "X" ? Number.parseInt(code.slice(1), 16) : Number(code);
    return point > 31 && point <= 0x10ffff ? String.fromCodePoint(point) : "";
  });

/** A title as text: markup dropped, entities read, one line, at most 200 characters. */
export const cleanTitle = (title: string) =>
  oneLine(decodeNumeric(plainText(title)))
    .slice(0, 200)
    .trim() || "Untitled";

/** The old addresses the post may answer at: none of this site's own. */
function keptPaths(item: ImportedPost, warnings: string[]) {
  for (const path of item.oldPaths.filter(isOwnAddress))
    warnings.push(`Its old address ${path.slice(0, 100)} was not kept: this site answers there itself.`);
  return item.oldPaths.filter((path) => !isOwnAddress(path));
}

const commentText = (html: string) => plainText(html.replace(/<br\s*\/?>|<\/p>/gi, "\n")).slice(0, 5000);

/** The comments the site's rules let in (the filter, a new account's links), each with what would hold it. */
async function keptComments(deps: Pick<Deps, "db">, author: AuthUser, item: ImportedPost, warnings: string[]) {
  const kept: { text: string; name: string; date: Date | null; terms: string[] | null }[] = [];
  let refused = 0;
  for (const comment of item.comments) {
    const text = commentText(comment.text);
    if (!text) continue;
    const name = oneLine(comment.author).slice(0, 100).trim() || "Anonymous";
    const verdict = await screen(deps, { description: text, name });
    if (verdict.action === "refuse" || (isNewAccount(author) && [text, name].some((field) => LINK.test(field)))) {
      refused++;
      continue;
    }
    kept.push({ text, name, date: comment.date, terms: isHeldForReview(verdict, null) ? verdict.terms : null });
  }
  if (refused > 0) warnings.push(`${refused} of its comments left out: the site's rules refuse them.`);
  return kept;
}

/**
 * One post, through the content's writer (every rule of what a post may be), with what makes importing it again a
 * no-op in its transaction: its old addresses and its approved comments under their writers' names. Its date is
 * kept when past; it is not news (no mail, no fediverse).
 */
export async function writePost(deps: WriteDeps, target: ImportTarget, item: ImportedPost): Promise<ItemResult> {
  if (item.error) throw new Error(item.error);
  const source = item.source.slice(0, 1000);
  const [already] = await deps.db
    .select({ postId: importedItems.postId })
    .from(importedItems)
    .where(and(eq(importedItems.userId, target.ownerId), eq(importedItems.source, source)));
  if (already) return { created: false, warnings: [] };
  const warnings: string[] = [];
  const mapped = await target.authorFor(item.author);
  // Read afresh for each post: a suspension, a limit or a verified address counts from the next one.
  const [author] = await deps.db.select().from(users).where(eq(users.id, mapped.id));
  if (!author) throw new Error("its author's account is gone");
  refuseSilencedAuthor(author);
  const body = await cleanBody(item, target.bringImage, warnings);
  // A post without text arrives all the same, as a draft for its author to finish.
  const empty = body.hasContent ? undefined : "it has no text";
  let cover: string | null = null;
  if (item.cover) {
    try {
      cover = await target.bringImage(item.cover, item.baseDir);
    } catch (error) {
      warnings.push(imageFailure(item.cover, error));
    }
  }
  const categoryId = await target.categoryFor(item.category, warnings);
  const oldPaths = item.status === "published" ? keptPaths(item, warnings) : [];
  const kept = await keptComments(deps, author, item, warnings);
  const held: { id: string; terms: string[] }[] = [];
  // Old addresses another post claimed first: they keep answering with that one, so the importer is told.
  let taken: string[] = [];
  const written = await writeNewPost(
    deps,
    author,
    {
      title: cleanTitle(item.title),
      description: body.html,
      categoryId,
      image: cover,
      status: empty ? "draft" : item.status,
      publishAt: item.date ?? undefined,
    },
    {
      publishedBefore: item.status === "published" ? (item.date ?? null) : null,
      quiet: true,
      overLimit: "draft",
      empty: "draft",
      alongside: async (tx, postId) => {
        // Claimed with the post: an import of the same file running at once rolls its copy back.
        const [claimed] = await tx
          .insert(importedItems)
          .values({ userId: target.ownerId, source, postId })
          .onConflictDoNothing()
          .returning({ source: importedItems.source });
        if (!claimed) throw new AlreadyImported();
        // Handed back in this site's archive of it, where verify-post checks it; this site vouches for none of it.
        if (item.provenance) await tx.insert(importedProvenance).values({ postId, document: item.provenance });
        if (oldPaths.length > 0) {
          const answering = await tx
            .insert(postRedirects)
            .values(oldPaths.map((path) => ({ path, postId })))
            .onConflictDoNothing()
            .returning({ path: postRedirects.path });
          taken = oldPaths.filter((path) => !answering.some((row) => row.path === path));
        }
        // A thousand rows a statement: well under PostgreSQL's 65,535 parameters.
        for (let start = 0; start < kept.length; start += 1000) {
          const batch = kept.slice(start, start + 1000);
          const rows = await tx
            .insert(comments)
            .values(
              batch.map((comment) => ({
                postId,
                userId: author.id,
                description: comment.text,
                importedAuthor: comment.name,
                createdAt: comment.date ?? item.date ?? new Date(),
                updatedAt: comment.date ?? item.date ?? new Date(),
                ...(comment.terms ? HELD_FOR_REVIEW : {}),
              })),
            )
            .returning({ id: comments.id });
          rows.forEach((row, index) => {
            const terms = batch[index]?.terms;
            if (terms) held.push({ id: row.id, terms });
          });
        }
      },
    },
  ).catch((error) => {
    if (error instanceof AlreadyImported) return null;
    throw error;
  });
  if (!written) return { created: false, warnings };
  for (const path of taken)
    warnings.push(`Its old address ${path.slice(0, 100)} was not kept: another post already answers there.`);
  for (const comment of held)
    await queueHeld(deps, { kind: "comment", id: comment.id, subjectId: author.id }, heldFor(null, comment.terms));
  if (written.status === "scheduled" && item.status === "published")
    warnings.push("Dated in the future: scheduled for then.");
  const draft = written.drafted ? newAccountLimit(deps.config) : empty && item.status !== "draft" ? empty : undefined;
  return { created: true, warnings, held: written.held, ...(draft ? { draft } : {}) };
}

/**
 * A reader the old site's list names: asked once to confirm, under the caps and the form's per-address limit, by
 * the import's `subscribers` (services/subscribers/imported.ts); only what was left waiting counts as written.
 */
export async function writeSubscriber(target: ImportTarget, item: ImportedSubscriber): Promise<ItemResult> {
  const author = await target.authorFor(item.author);
  return { created: (await target.subscribers.add(author, item.email)) === "waiting", warnings: [] };
}
