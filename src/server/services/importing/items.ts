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
}

/** A reader subscribed by e-mail on the old site (Substack's list, Ghost's members). */
export interface ImportedSubscriber {
  kind: "subscriber";
  source: string;
  email: string;
  author: string | null;
}

export type ImportedItem = ImportedPost | ImportedSubscriber;

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
