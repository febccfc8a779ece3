import { COMMENT_MAX, POST_DESCRIPTION_MAX, POST_TITLE_MAX } from "#shared/constants.ts";
import type { ProvenanceFile } from "#shared/schemas/provenance-file.ts";
import type { ArchiveFile } from "./archive-file.ts";

/** A comment an archive brings, kept under its original writer's name and date. */
export interface ImportedComment {
  source: string;
  author: string;
  date: Date | null;
  text: string;
}

/** A post as every format reads it, before it is cleaned and written. */
export interface ImportedPost {
  kind: "post";
  /** The archive's own id for it (a guid, an id, a file name): importing again finds it by this. */
  source: string;
  title: string;
  html: string;
  status: "published" | "draft" | "scheduled";
  date: Date | null;
  category: string | null;
  /** An image's address or its path in the archive. */
  cover: string | null;
  /** Where the post lived on the old site (`/2019/05/my-post/`, `/p/my-post`). */
  oldPaths: string[];
  author: string | null;
  comments: ImportedComment[];
  /** Where its relative image paths start in the archive. */
  baseDir?: string;
  /** Why the archive's file for it could not be read: the item is then only reported. */
  error?: string;
  /** Why it arrives as a draft though the archive has it published (a password, a body cut to the editor's size). */
  draftReason?: string;
  /** What of it was left out (a shortcode, comments over the limit): reported with the item. */
  notes?: string[];
  /** A Penchain archive's `provenance.json` beside it: its revisions on the site it comes from, kept as they are. */
  provenance?: ProvenanceFile;
}

/** A reader subscribed by e-mail on the old site (Substack's list, Ghost's members). */
export interface ImportedSubscriber {
  kind: "subscriber";
  source: string;
  email: string;
  author: string | null;
}

/** An item of the archive that is not imported (a page, a menu, an unsubscribed reader): only counted, by reason. */
export interface SkippedItem {
  kind: "skipped";
  reason: string;
}

export type ImportedItem = ImportedPost | ImportedSubscriber | SkippedItem;

/**
 * One archive format: `scan` reads the whole archive once, checking it and counting what it holds (it throws
 * `HostileArchive`, before anything is written, for what must be refused); `items` then reads it again, one item at
 * a time.
 */
export interface FormatReader {
  scan(): Promise<{ total: number; authors: string[] }>;
  items(): AsyncIterable<ImportedItem>;
}

export type FormatOpener = (archive: ArchiveFile) => FormatReader;

/** A date an archive gives, or null for none or nonsense. */
export function dateOf(value: unknown): Date | null {
  if (value === null || value === undefined || value === "" || value === "0000-00-00 00:00:00") return null;
  const date = new Date(typeof value === "number" ? value : String(value));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** An old address as it is kept: the path only, no trailing slash, at most 500 characters. */
export function oldPath(link: string | null | undefined): string | null {
  if (!link) return null;
  const url = URL.parse(link, "https://old.invalid");
  if (!url || !/^https?:$/.test(url.protocol)) return null;
  const pathname = normalPath(url.pathname);
  return pathname && pathname.length <= 500 ? pathname : null;
}

/** A path as old addresses are kept and looked up: one percent-encoding, no trailing slash. */
export function normalPath(path: string) {
  let decoded = path;
  try {
    decoded = encodeURI(decodeURI(path));
  } catch {}
  return decoded.replace(/\/+$/, "");
}

/**
 * What an item may hold, as the editor's own limits (`src/shared/constants.ts`), checked before anything else is done
 * with it: a text over its limit is cut (a body's item becomes a draft), so no step after reads more than this.
 */
export const ITEM_LIMITS = {
  body: POST_DESCRIPTION_MAX,
  /** Raw titles and names may carry markup and entities the cleaning removes. */
  title: POST_TITLE_MAX * 4,
  name: 400,
  comment: COMMENT_MAX * 4,
  comments: 5000,
  /** One text an archive's reader keeps at all (an XML text node, a JSON string): above it, the rest is not read. */
  text: POST_DESCRIPTION_MAX * 10,
} as const;

export const CUT_BODY = `its body is longer than the editor's ${POST_DESCRIPTION_MAX.toLocaleString("en")} characters: cut there`;

/** A body cut to the editor's limit, at the end of the last whole tag before it. */
export function cutBody(html: string): { html: string; cut: boolean } {
  if (html.length <= ITEM_LIMITS.body) return { html, cut: false };
  const head = html.slice(0, ITEM_LIMITS.body);
  const open = head.lastIndexOf("<");
  return { html: open > head.lastIndexOf(">") ? head.slice(0, open) : head, cut: true };
}

const PAST_SCHEDULE = "it was scheduled for a time now past";
const isPastSchedule = (item: ImportedPost) =>
  item.status === "scheduled" && (item.date === null || item.date.getTime() <= Date.now());

const cap = (text: string | null, max: number) => (text && text.length > max ? text.slice(0, max) : text);

/** An item held to the editor's limits before anything reads it further (see `ITEM_LIMITS`). */
export function bounded(item: ImportedItem): ImportedItem {
  if (item.kind === "skipped") return item;
  if (item.kind === "subscriber")
    return { ...item, email: item.email.slice(0, 320), source: item.source.slice(0, 1000) };
  const body = cutBody(item.html);
  const notes = [...(item.notes ?? [])];
  if (item.comments.length > ITEM_LIMITS.comments)
    notes.push(`only its first ${ITEM_LIMITS.comments} comments are brought`);
  return {
    ...item,
    source: item.source.slice(0, 1000),
    title: cap(item.title, ITEM_LIMITS.title) ?? "",
    html: body.html,
    category: cap(item.category, ITEM_LIMITS.name),
    cover: item.cover && item.cover.length <= 2000 ? item.cover : null,
    author: cap(item.author, ITEM_LIMITS.name),
    oldPaths: item.oldPaths.slice(0, 20),
    comments: item.comments.slice(0, ITEM_LIMITS.comments).map((comment) => ({
      ...comment,
      source: comment.source.slice(0, 1000),
      author: cap(comment.author, ITEM_LIMITS.name) ?? "",
      text: cap(comment.text, ITEM_LIMITS.comment) ?? "",
    })),
    ...(body.cut ? { status: "draft" as const, draftReason: item.draftReason ?? CUT_BODY } : {}),
    ...(!body.cut && isPastSchedule(item) ? { status: "draft" as const, draftReason: PAST_SCHEDULE } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
}
