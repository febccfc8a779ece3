import { and, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { Post, PostDetail, PostListQuery } from "#shared/schemas/posts.ts";
import { follows, posts } from "../../db/schema.ts";
import { preparedFor } from "../../db/statement.ts";
import { HttpError } from "../../http-error.ts";
import { cursorShapes, decodeCursor, toPage } from "../../infra/cursor.ts";
import { holdsMutedWord, mutes } from "../blocks/queries.ts";
import type { Deps } from "../core/deps.ts";
import { isPublished, isReachable, POST_NOT_FOUND, postFilters, selectPosts, toPost } from "../core/post-queries.ts";
import { listComments } from "./comments.ts";
import { searchPosts } from "./search.ts";

/** One post by id with a viewer's reaction (none for null): every like answers with it, so it is built once. */
const postById = preparedFor((db) =>
  selectPosts({ db }, sql.placeholder("viewerId"), { where: eq(posts.id, sql.placeholder("id")), limit: 1 }).prepare(
    "post_by_id",
  ),
);

/** A post whatever its status: for its author's own answers (create, edit, delete). */
export async function getPost(deps: Pick<Deps, "db">, id: string, viewerId: string | null) {
  const [row] = await postById(deps.db).execute({ id, viewerId });
  if (!row) throw new HttpError(404, POST_NOT_FOUND);
  return toPost(row);
}

/** The comments a post's page shows first. */
export const firstComments = (deps: Pick<Deps, "db">, id: string) => listComments(deps, id, { limit: 20 });

/**
 * A post as its page shows it, without its comments: its tips and where they go. Published only, unless `authorId`
 * names its author, who also sees it as a draft or scheduled. A draft is never told apart from a missing post.
 */
export async function getPostBody(deps: Pick<Deps, "db">, id: string, authorId?: string) {
  const visible = authorId ? or(isReachable, eq(posts.userId, authorId)) : isReachable;
  const [row] = await selectPosts(deps, null, { where: and(eq(posts.id, id), visible), limit: 1, page: true });
  if (!row) throw new HttpError(404, POST_NOT_FOUND);
  return { ...toPost(row), tips: row.tips ?? { count: 0, totalWei: "0" }, authorWallet: row.authorWallet };
}

/** A post with its first page of comments as anyone sees it (no reader's own reaction); see `getPostBody`. */
export async function getPostDetail(deps: Pick<Deps, "db">, id: string, authorId?: string): Promise<PostDetail> {
  const body = await getPostBody(deps, id, authorId);
  const page = await firstComments(deps, id);
  return { ...body, comments: page.items, commentsNextCursor: page.nextCursor };
}

/** The posts a list asks for: those matching its words when it has `q`, else the list in its own order. */
export const findPosts = (deps: Pick<Deps, "db">, { q, following: _following, ...query }: PostListQuery) =>
  q === undefined ? listPosts(deps, query) : searchPosts(deps, q, query);

/**
 * A reader's Following feed: the published posts of the authors they follow, newest first, keyset-paged on
 * (publishedAt, id), with their own reactions. One query per page whatever the number of authors followed: each
 * followed author's newest posts past the cursor are read from their end of an index (at most a page from each),
 * then the page is chosen among those; nothing scans posts by others.
 */
export async function listFollowedPosts(
  deps: Pick<Deps, "db">,
  readerId: string,
  query: { cursor?: string | undefined; limit: number },
) {
  const after = query.cursor
    ? (() => {
        const [at, id] = decodeCursor(query.cursor, cursorShapes.timeId);
        return sql`and (p.published_at, p.id) < (${at}::timestamptz, ${id}::uuid)`;
      })()
    : sql``;
  const reader = sql`${readerId}::uuid`;
  const followed = sql`${posts.id} in (
    select candidate.id from ${follows} f cross join lateral (
      select p.id from ${posts} p
      where p.user_id = f.followee_id and p.status = 'published' and p.moderation = 'visible' ${after}
        and not ${holdsMutedWord(reader, sql`p.title || ' ' || p.description`)}
      order by p.published_at desc, p.id desc limit ${query.limit + 1}) candidate
    where f.follower_id = ${readerId} and not ${mutes(reader, sql`f.followee_id`)})`;
  const rows = await selectPosts(deps, readerId, { where: followed, limit: query.limit + 1, order: "newest" });
  const page = toPage(rows, query.limit, (row) => [row.publishedKey, row.id]);
  return { items: page.items.map(toPost), nextCursor: page.nextCursor };
}

/**
 * Published posts: featured first, then newest first, keyset-paged on (isFeatured, publishedAt, id), all descending.
 * As anyone sees it: the route adds a signed-in reader's own reactions to the (cached) page.
 */
export async function listPosts(deps: Pick<Deps, "db">, query: Omit<PostListQuery, "q">) {
  const filters = [isPublished, ...postFilters(query)];
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

/** What readers' likes, dislikes and comments change on a post: its counts, kept apart from cached pages. */
export type PostCounts = Pick<Post, "likesCount" | "disLikesCount" | "commentsCount">;

const countColumns = {
  id: posts.id,
  likesCount: posts.likesCount,
  disLikesCount: posts.disLikesCount,
  commentsCount: posts.commentsCount,
};
/** One post's counts: what a page reads again after a like or a comment on one of its posts. */
const countsOfOne = preparedFor((db) =>
  db
    .select(countColumns)
    .from(posts)
    .where(eq(posts.id, sql.placeholder("id")))
    .prepare("counts_of_one"),
);

/** The current counts of some posts, in one query on the primary key. */
export async function postCounts(deps: Pick<Deps, "db">, ids: string[]): Promise<Map<string, PostCounts>> {
  if (ids.length === 0) return new Map();
  const rows =
    ids.length === 1
      ? await countsOfOne(deps.db).execute({ id: ids[0] })
      : await deps.db.select(countColumns).from(posts).where(inArray(posts.id, ids));
  return new Map(rows.map(({ id, ...counts }) => [id, counts]));
}
