import { and, desc, type SQL, sql } from "drizzle-orm";
import type { PostListQuery } from "#shared/schemas/posts.ts";
import { posts } from "../../db/schema.ts";
import { cursorKey, cursorShapes, decodeCursor, toPage } from "../../infra/cursor.ts";
import type { Deps } from "../core/deps.ts";
import { headline } from "../core/excerpt.ts";
import { isPublished, type PostRow, postFilters, selectPosts, toPost } from "../core/post-queries.ts";

/**
 * The reader's words as a tsquery: websearch syntax ("quoted phrases", -excluded words, or), each word of three
 * letters or more that is not excluded also matching as a prefix, so `bloc` finds "blockchain" (a shorter prefix
 * would match nearly everything). Stemmed like the documents (english).
 */
const searchQuery = (q: string) =>
  sql`(regexp_replace(websearch_to_tsquery('english', ${q})::text, ${"(^|[^!])'((?:[^']|''){3,})'"}, ${"\\1'\\2':*"}, 'g'))::tsquery`;
const searchRank = (query: SQL) => sql<number>`ts_rank(${posts.searchVector}, ${query})`;
/**
 * How many matches are ranked together. A search matching more (a word in most posts) is ranked a stretch of this
 * many at a time, newest stretch first, so a page costs the same however many posts match; one matching fewer is
 * ranked whole.
 */
export const SEARCH_WINDOW = 1000;

type Key = [at: string, id: string];

/**
 * Published posts matching `q`, most relevant first and the newest among equals, within the category and author
 * filters; paged on (stretch, rank, publishedAt, id).
 */
export async function searchPosts(deps: Pick<Deps, "db">, q: string, query: Omit<PostListQuery, "q">) {
  const search = searchQuery(q);
  const order = { rank: searchRank(search), headline: headline(search) };
  const matches = [isPublished, ...postFilters(query), sql`${posts.searchVector} @@ ${search}`];
  const below = ([at, id]: Key) => sql`(${posts.publishedAt}, ${posts.id}) < (${at}::timestamptz, ${id}::uuid)`;
  // The stretch being read: matches below `newer` (none: the newest), down to and including `oldest` (none: all),
  // which is always found here, from `newer`.
  let [newer, oldest, after]: [Key | null, Key | null | undefined, [number, string, string] | null] = [
    null,
    undefined,
    null,
  ];
  if (query.cursor) {
    const [cursorNewer, rank, at, id] = decodeCursor(query.cursor, cursorShapes.search);
    [newer, after] = [cursorNewer, [rank, at, id]];
  }
  const found: { row: PostRow; newer: Key | null }[] = [];
  while (found.length <= query.limit) {
    if (oldest === undefined) oldest = await stretchEnd(deps, and(...matches, newer ? below(newer) : undefined));
    const within = [
      ...matches,
      newer ? below(newer) : undefined,
      oldest ? sql`(${posts.publishedAt}, ${posts.id}) >= (${oldest[0]}::timestamptz, ${oldest[1]}::uuid)` : undefined,
      after
        ? sql`(${searchRank(search)}, ${posts.publishedAt}, ${posts.id}) < (${after[0]}::real, ${after[1]}::timestamptz, ${after[2]}::uuid)`
        : undefined,
    ];
    const rows = await selectPosts(deps, null, {
      where: and(...within),
      limit: query.limit + 1 - found.length,
      order,
    });
    for (const row of rows) found.push({ row, newer });
    // The last stretch, or the page is full; else this stretch is read to its end and the next one follows.
    if (!oldest || found.length > query.limit) break;
    [newer, oldest, after] = [oldest, undefined, null];
  }
  const page = toPage(found, query.limit, ({ row, newer }) => [newer, row.rank, row.publishedKey, row.id]);
  return { items: page.items.map(({ row }) => toPost(row)), nextCursor: page.nextCursor };
}

/** The oldest of the next SEARCH_WINDOW matches, newest first, or null when fewer are left: one index walk. */
async function stretchEnd(deps: Pick<Deps, "db">, where: SQL | undefined): Promise<Key | null> {
  const [end] = await deps.db
    .select({ at: cursorKey(posts.publishedAt), id: posts.id })
    .from(posts)
    .where(where)
    .orderBy(desc(posts.publishedAt), desc(posts.id))
    .offset(SEARCH_WINDOW - 1)
    .limit(1);
  return end ? [end.at, end.id] : null;
}
