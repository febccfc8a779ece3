import { and, desc, eq, getTableColumns, ne, type SQL, sql } from "drizzle-orm";
import type { ExcerptPart, Post, PostListQuery } from "../../../shared/schemas/posts.ts";
import { categories, payments, posts, reactions, users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { cursorKey, cursorShapes, decodeCursor, toPage } from "../cursor.ts";
import type { Deps } from "../deps.ts";
import { toUserSummary, userSummaryColumns } from "../users/user-fields.ts";

// Named in full: Drizzle may leave columns unqualified, and a bare "id" inside a subquery binds to its own table.
const OUTER_POST_ID = sql.raw('"posts"."id"');

/** What anyone may see: drafts and scheduled posts are their author's alone. */
export const isPublished = eq(posts.status, "published");

/** Refuses anything but a published post, as a missing one: drafts take no comments or reactions. */
export async function requirePublished(deps: Pick<Deps, "db">, id: string) {
  const [post] = await deps.db
    .select({ id: posts.id })
    .from(posts)
    .where(and(eq(posts.id, id), isPublished));
  if (!post) throw new HttpError(404, "Post not found");
}

/**
 * The reader's words as a tsquery: websearch syntax ("quoted phrases", -excluded words, or), each word of three
 * letters or more that is not excluded also matching as a prefix, so `bloc` finds "blockchain" (a shorter prefix
 * would match nearly everything). Stemmed like the documents (english).
 */
const searchQuery = (q: string) =>
  sql`(regexp_replace(websearch_to_tsquery('english', ${q})::text, ${"(^|[^!])'((?:[^']|''){3,})'"}, ${"\\1'\\2':*"}, 'g'))::tsquery`;
const searchRank = (query: SQL) => sql<number>`ts_rank(${posts.searchVector}, ${query})`;
/** Matches are marked with \x01…\x02, characters a post's plain text never holds (see post_plain_text). */
const [MATCH_START, MATCH_END] = ["\x01", "\x02"];
const HEADLINE_OPTIONS = `StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=35, MinWords=15, MaxFragments=2, FragmentDelimiter=" … "`;

/** The order a page is chosen in; each has an index (the search's rank is sorted among the GIN index's matches). */
type Order = "featured" | "newest" | "edited" | { search: SQL };

function orderOf(order: Order, page: { isFeatured: unknown; publishedAt: unknown; updatedAt: unknown; id: unknown }) {
  const column = (value: unknown) => desc(value as SQL);
  if (order === "featured") return [column(page.isFeatured), column(page.publishedAt), column(page.id)];
  if (order === "newest") return [column(page.publishedAt), column(page.id)];
  if (order === "edited") return [column(page.updatedAt), column(page.id)];
  return [sql`rank desc`, column(page.publishedAt), column(page.id)];
}

/**
 * A page of posts with author, category, counts and the viewer's own reaction, in one query. The page is chosen on
 * the posts table alone, where an index serves its order; joins, counts and search excerpts then run for the page's
 * rows only, so a page costs the same whatever the size of the tables.
 */
export function selectPosts(
  deps: Pick<Deps, "db">,
  viewerId: string | null,
  { where, limit, order = "featured" }: { where?: SQL | undefined; limit: number; order?: Order },
) {
  const search = typeof order === "object" ? order.search : null;
  // Aliased "posts", so the counts' references to the outer post stay what they are.
  const page = deps.db
    .select({ ...postColumns, rank: (search ? searchRank(search) : sql<number>`0`).as("rank") })
    .from(posts)
    .where(where)
    .orderBy(...orderOf(order, posts))
    .limit(limit)
    .as("posts");
  return deps.db
    .select({
      id: page.id,
      title: page.title,
      description: page.description,
      image: page.image,
      isFeatured: page.isFeatured,
      status: page.status,
      publishedAt: page.publishedAt,
      numViews: page.numViews,
      createdAt: page.createdAt,
      updatedAt: page.updatedAt,
      userId: page.userId,
      category: categories.title,
      author: userSummaryColumns,
      likesCount: page.likesCount,
      disLikesCount: page.disLikesCount,
      commentsCount: page.commentsCount,
      viewerReaction: viewerId
        ? sql<
            "like" | "dislike" | null
          >`(select ${reactions.kind} from ${reactions} where ${reactions.postId} = ${OUTER_POST_ID} and ${reactions.userId} = ${viewerId})`
        : sql<null>`null`,
      transectionHash: sql<
        string | null
      >`(select ${payments.txHash} from ${payments} where ${payments.postId} = ${OUTER_POST_ID} and ${payments.purpose} = 'featured' limit 1)`,
      rank: page.rank,
      headline: search
        ? sql<string>`ts_headline('english', post_plain_text(${page.description}), ${search}, ${HEADLINE_OPTIONS})`
        : sql<null>`null`,
      publishedKey: cursorKey(page.publishedAt),
      updatedKey: cursorKey(page.updatedAt),
    })
    .from(page)
    .innerJoin(users, eq(users.id, page.userId))
    .innerJoin(categories, eq(categories.id, page.categoryId))
    .orderBy(...orderOf(order, page));
}
export type PostRow = Awaited<ReturnType<typeof selectPosts>>[number];

// Every column but the search document, which only the database reads.
const { searchVector: _searchVector, ...postColumns } = getTableColumns(posts);

export function toPost(row: PostRow): Post {
  return {
    _id: row.id,
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    image: row.image,
    isFeatured: row.isFeatured,
    transectionHash: row.transectionHash,
    user: toUserSummary(row.author),
    likesCount: row.likesCount,
    disLikesCount: row.disLikesCount,
    viewerReaction: row.viewerReaction,
    numViews: row.numViews,
    commentsCount: row.commentsCount,
    status: row.status,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(row.headline === null ? {} : { excerpt: excerptParts(row.headline) }),
  };
}

/** ts_headline's text with \x01…\x02 around matches, as parts: the client shows them as text, so nothing in a post can become markup. */
export function excerptParts(headline: string): ExcerptPart[] {
  const parts: ExcerptPart[] = [];
  for (const [index, piece] of headline.split(new RegExp(`[${MATCH_START}${MATCH_END}]`)).entries()) {
    if (piece) parts.push({ text: piece, match: index % 2 === 1 });
  }
  return parts;
}

/**
 * Published posts: featured first, then newest first, keyset-paged on (isFeatured, publishedAt, id), all descending.
 * With `q`, the posts that match it, most relevant first and the newest among equals, paged on (rank, publishedAt,
 * id). As anyone sees it: the route adds a signed-in reader's own reactions to the (cached) page.
 */
export async function listPosts(deps: Pick<Deps, "db">, query: PostListQuery) {
  const filters = [isPublished, ...postFilters(query)];
  if (query.q !== undefined) return searchPosts(deps, query.q, filters, query);
  if (query.cursor) {
    const [featured, at, id] = decodeCursor(query.cursor, cursorShapes.featuredTimeId);
    filters.push(
      sql`(${posts.isFeatured}, ${posts.publishedAt}, ${posts.id}) < (${featured}, ${at}::timestamptz, ${id}::uuid)`,
    );
  }
  const rows = await selectPosts(deps, null, { where: and(...filters), limit: query.limit + 1 });
  const page = toPage(rows, query.limit, (row) => [row.isFeatured, row.publishedKey, row.id]);
  return { items: page.items.map(toPost), nextCursor: page.nextCursor };
}

async function searchPosts(
  deps: Pick<Deps, "db">,
  q: string,
  filters: (SQL | undefined)[],
  query: { cursor?: string | undefined; limit: number },
) {
  const search = searchQuery(q);
  filters.push(sql`${posts.searchVector} @@ ${search}`);
  if (query.cursor) {
    const [rank, at, id] = decodeCursor(query.cursor, cursorShapes.rankTimeId);
    filters.push(
      sql`(${searchRank(search)}, ${posts.publishedAt}, ${posts.id}) < (${rank}::real, ${at}::timestamptz, ${id}::uuid)`,
    );
  }
  const rows = await selectPosts(deps, null, { where: and(...filters), limit: query.limit + 1, order: { search } });
  const page = toPage(rows, query.limit, (row) => [row.rank, row.publishedKey, row.id]);
  return { items: page.items.map(toPost), nextCursor: page.nextCursor };
}

/** The filters a reader can choose: a category (by title, any case) and an author. */
function postFilters(query: { category?: string | undefined; author?: string | undefined }) {
  const filters: (SQL | undefined)[] = [];
  if (query.category) {
    filters.push(
      eq(
        posts.categoryId,
        sql`(select ${categories.id} from ${categories} where lower(${categories.title}) = lower(${query.category}))`,
      ),
    );
  }
  if (query.author) filters.push(eq(posts.userId, query.author));
  return filters;
}

/** The newest published posts, whatever is featured: what feeds carry. */
export async function listNewestPosts(
  deps: Pick<Deps, "db">,
  query: { category?: string | undefined; author?: string | undefined; limit: number },
) {
  const rows = await selectPosts(deps, null, {
    where: and(isPublished, ...postFilters(query)),
    limit: query.limit,
    order: "newest",
  });
  return rows.map(toPost);
}

/** An author's drafts and scheduled posts, last edited first: theirs alone, never cached. */
export async function listUnpublishedPosts(
  deps: Pick<Deps, "db">,
  authorId: string,
  query: { cursor?: string | undefined; limit: number },
) {
  const filters = [eq(posts.userId, authorId), ne(posts.status, "published")];
  if (query.cursor) {
    const [at, id] = decodeCursor(query.cursor, cursorShapes.timeId);
    filters.push(sql`(${posts.updatedAt}, ${posts.id}) < (${at}::timestamptz, ${id}::uuid)`);
  }
  const rows = await selectPosts(deps, authorId, { where: and(...filters), limit: query.limit + 1, order: "edited" });
  const page = toPage(rows, query.limit, (row) => [row.updatedKey, row.id]);
  return { items: page.items.map(toPost), nextCursor: page.nextCursor };
}

/** Every published post's address and last change, oldest first, a sitemap file at a time. */
export async function listPostDates(deps: Pick<Deps, "db">, page: { offset: number; limit: number }) {
  return deps.db
    .select({ id: posts.id, updatedAt: posts.updatedAt })
    .from(posts)
    .where(isPublished)
    .orderBy(posts.publishedAt, posts.id)
    .offset(page.offset)
    .limit(page.limit);
}

export const countPosts = (deps: Pick<Deps, "db">) => deps.db.$count(posts, isPublished);
