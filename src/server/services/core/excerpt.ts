import { type SQL, sql } from "drizzle-orm";
import type { ExcerptPart } from "#shared/schemas/posts.ts";

/** Matches are marked with \x01…\x02, characters a post's plain text never holds (see post_plain_text). */
const [MATCH_START, MATCH_END] = ["\x01", "\x02"];
const HEADLINE_OPTIONS = `StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=35, MinWords=15, MaxFragments=2, FragmentDelimiter=" … "`;

/**
 * How much of a post's HTML an excerpt is cut from. A body may be 100,000 characters; reading all of it for every
 * result of every search would cost far more than the search, so a match further in shows the post's opening words.
 */
export const EXCERPT_SOURCE_CHARS = 8000;

/** A short piece of a post's text (its sanitised HTML's words) around what `query` matches, matches marked. */
export const headline = (query: SQL) => (html: SQL) =>
  sql<string>`ts_headline('english', post_plain_text(regexp_replace(left(${html}, ${EXCERPT_SOURCE_CHARS}), '<[^>]*$', '')), ${query}, ${HEADLINE_OPTIONS})`;

/** A headline as parts: the client shows them as text, so nothing in a post can become markup. */
export function excerptParts(text: string): ExcerptPart[] {
  const parts: ExcerptPart[] = [];
  for (const [index, piece] of text.split(new RegExp(`[${MATCH_START}${MATCH_END}]`)).entries()) {
    if (piece) parts.push({ text: piece, match: index % 2 === 1 });
  }
  return parts;
}
