import { and, eq, sql } from "drizzle-orm";
import { oneLine } from "#shared/notification-text.ts";
import { plainText } from "#shared/text.ts";
import { categories, comments, importedItems, postRedirects, posts } from "../../db/schema.ts";
import type { Deps } from "../deps.ts";
import { screenOrRefuse } from "../moderation/filter.ts";
import { heldFor, queueHeld, WAITING_FOR_REVIEW } from "../moderation/reports.ts";
import { hasContent, sanitizePostHtml } from "../sanitize.ts";
import type { SubscriberImport } from "../subscribers/imported.ts";
import { imageFailure } from "./images.ts";
import type { ImportedPost, ImportedSubscriber } from "./items.ts";

type WriteDeps = Pick<Deps, "db" | "config" | "storage" | "mailer">;
export type BringImage = (ref: string, baseDir?: string) => Promise<string | null>;

/** Who an import writes for: its owner (whose "same file again" it is) and, per item, the author it maps to. */
export interface ImportTarget {
  ownerId: string;
  format: string;
  authorFor(name: string | null): Promise<{ id: string; name: string; limitedAt: Date | null }>;
  /** Categories found or made so far, by lower-cased title (an archive names a few, many times). */
  categories: Map<string, Promise<string>>;
  bringImage: BringImage;
  /** The list of subscribers' share: who may bring one, its caps, its report. */
  subscribers: SubscriberImport;
}

class AlreadyImported extends Error {}

/** What writing one item gave: done (new or already there), or done with the reasons some of it was left out. */
export interface ItemResult {
  created: boolean;
  warnings: string[];
}

const NUMERIC_ENTITY = /&#(x[0-9a-f]+|\d+);/gi;
const decodeNumeric = (text: string) =>
  text.replace(NUMERIC_ENTITY, (_match, code: string) => {
    const point = code[0] === "x" || code[0] === "X" ? Number.parseInt(code.slice(1), 16) : Number(code);
    return point > 31 && point <= 0x10ffff ? String.fromCodePoint(point) : "";
  });

/** A title as text: markup dropped, entities read, one line, at most 200 characters. */
export const cleanTitle = (title: string) =>
  oneLine(decodeNumeric(plainText(title)))
    .slice(0, 200)
    .trim() || "Untitled";

/** WordPress keeps paragraphs as blank lines (its `wpautop` adds the tags when it shows them). */
export function paragraphs(html: string) {
  if (/<(p|div|h[1-6]|ul|ol|blockquote|figure)\b/i.test(html)) return html;
  return html
    .split(/\n\s*\n/)
    .map((chunk) => chunk.trim())
    .filter(Boolean)
    .map((chunk) => `<p>${chunk.replace(/\n/g, "<br>")}</p>`)
    .join("");
}

const IMG_SRC = /(<img\b[^>]*?\bsrc\s*=\s*)("([^"]*)"|'([^']*)')/gi;
const attribute = (value: string) =>
  value
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'");

/** The body's images brought in (or left out), then the same sanitiser as a written post. */
async function cleanBody(item: ImportedPost, bring: BringImage, warnings: string[]) {
  const refs = new Map<string, string | null>();
  for (const match of item.html.matchAll(IMG_SRC)) refs.set(match[3] ?? match[4] ?? "", null);
  for (const ref of refs.keys()) {
    try {
      refs.set(ref, await bring(attribute(ref), item.baseDir));
    } catch (error) {
      warnings.push(imageFailure(ref, error));
    }
  }
  const html = item.html.replace(IMG_SRC, (whole, start: string, _quoted, double?: string, single?: string) => {
    const ref = double ?? single ?? "";
    const stored = refs.get(ref);
    return stored ? `${start}"${stored}"` : whole;
  });
  return sanitizePostHtml(paragraphs(html));
}

/** The category by its title, made if missing (an archive's first category becomes the post's). */
async function categoryFor(deps: Pick<Deps, "db">, title: string | null, userId: string) {
  const name =
    oneLine(decodeNumeric(plainText(title ?? "")))
      .slice(0, 60)
      .trim() || "Uncategorized";
  await deps.db.insert(categories).values({ title: name, userId }).onConflictDoNothing();
  const [row] = await deps.db
    .select({ id: categories.id })
    .from(categories)
    .where(sql`lower(${categories.title}) = lower(${name})`);
  if (!row) throw new Error(`the category "${name}" could not be made`);
  return row.id;
}

function categoryOf(deps: Pick<Deps, "db">, target: ImportTarget, title: string | null, userId: string) {
  const key = (title ?? "").trim().toLowerCase();
  let id = target.categories.get(key);
  if (!id) {
    id = categoryFor(deps, title, userId);
    // A failure is not kept: the next post asks again.
    id.catch(() => target.categories.delete(key));
    target.categories.set(key, id);
  }
  return id;
}

const commentText = (html: string) => plainText(html.replace(/<br\s*\/?>|<\/p>/gi, "\n")).slice(0, 5000);

/**
 * One post, in one transaction with what makes importing it again a no-op: the post (its dates as they were; no mail,
 * no fediverse: it is not news), its old addresses, its approved comments under their writers' names.
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
  const title = cleanTitle(item.title);
  const description = await cleanBody(item, target.bringImage, warnings);
  if (!hasContent(description)) throw new Error("it has no text");
  const author = await target.authorFor(item.author);
  const verdict = await screenOrRefuse(deps, { title, description: plainText(description) });
  const held = verdict.action === "hold" || author.limitedAt !== null;
  let cover: string | null = null;
  if (item.cover) {
    try {
      cover = await target.bringImage(item.cover, item.baseDir);
    } catch (error) {
      warnings.push(imageFailure(item.cover, error));
    }
  }
  const categoryId = await categoryOf(deps, target, item.category, author.id);
  const date = item.date ?? new Date();
  const status = item.status === "scheduled" && date <= new Date() ? "draft" : item.status;
  const postId = await deps.db
    .transaction(async (tx) => {
      const [post] = await tx
        .insert(posts)
        .values({
          title,
          description,
          categoryId,
          image: cover,
          userId: author.id,
          status,
          publishedAt: status === "draft" ? null : date,
          createdAt: date,
          updatedAt: date,
          ...(held ? { moderation: "held" as const, moderationReason: WAITING_FOR_REVIEW } : {}),
        })
        .returning({ id: posts.id });
      if (!post) throw new Error("the post was not written");
      // Claimed with the post: an import of the same file running at once rolls its copy back.
      const [claimed] = await tx
        .insert(importedItems)
        .values({ userId: target.ownerId, source, postId: post.id })
        .onConflictDoNothing()
        .returning({ source: importedItems.source });
      if (!claimed) throw new AlreadyImported();
      if (status === "published" && item.oldPaths.length > 0)
        await tx
          .insert(postRedirects)
          .values(item.oldPaths.map((path) => ({ path, postId: post.id })))
          .onConflictDoNothing();
      const kept = item.comments
        .map((comment) => ({ comment, text: commentText(comment.text) }))
        .filter(({ text }) => text);
      // A thousand rows a statement: well under PostgreSQL's 65,535 parameters.
      for (let start = 0; start < kept.length; start += 1000)
        await tx.insert(comments).values(
          kept.slice(start, start + 1000).map(({ comment, text }) => ({
            postId: post.id,
            userId: author.id,
            description: text,
            importedAuthor: oneLine(comment.author).slice(0, 100).trim() || "Anonymous",
            createdAt: comment.date ?? date,
            updatedAt: comment.date ?? date,
          })),
        );
      return post.id;
    })
    .catch((error) => {
      if (error instanceof AlreadyImported) return null;
      throw error;
    });
  if (!postId) return { created: false, warnings };
  if (held) await queueHeld(deps, { kind: "post", id: postId, subjectId: author.id }, heldFor(author, verdict.terms));
  return { created: true, warnings };
}

/**
 * A reader the old site's list names: asked once to confirm, under the caps and the form's per-address limit, by
 * the import's `subscribers` (services/subscribers/imported.ts); only what was left waiting counts as written.
 */
export async function writeSubscriber(target: ImportTarget, item: ImportedSubscriber): Promise<ItemResult> {
  const author = await target.authorFor(item.author);
  return { created: (await target.subscribers.add(author, item.email)) === "waiting", warnings: [] };
}
