import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Post, PostListQuery } from "../../../shared/schemas/posts.ts";
import { categories, payments, posts, reactions, users } from "../../db/schema.ts";
import { cursorKey, cursorShapes, decodeCursor, toPage } from "../cursor.ts";
import type { Deps } from "../deps.ts";
import { toUserSummary, userSummaryColumns } from "../users/user-fields.ts";

// Named in full: Drizzle may leave columns unqualified, and a bare "id" inside a subquery binds to its own table.
const OUTER_POST_ID = sql.raw('"posts"."id"');

/**
 * A page of posts (featured first, then newest) with author, category, counts and the viewer's own reaction, in one
 * query. The page is chosen on the posts table alone, where an index serves that order; joins and counts then run
 * for the page's rows only, so a page costs the same whatever the size of the tables.
 */
export function selectPosts(
  deps: Pick<Deps, "db">,
  viewerId: string | null,
  { where, limit, newestFirst = false }: { where?: SQL; limit: number; newestFirst?: boolean },
) {
  const order = newestFirst
    ? [desc(posts.createdAt), desc(posts.id)]
    : [desc(posts.isFeatured), desc(posts.createdAt), desc(posts.id)];
  // Aliased "posts", so the counts' references to the outer post stay what they are.
  const page = deps.db
    .select()
    .from(posts)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .as("posts");
  return deps.db
    .select({
      id: page.id,
      title: page.title,
      description: page.description,
      image: page.image,
      isFeatured: page.isFeatured,
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
      cursorAt: cursorKey(page.createdAt),
    })
    .from(page)
    .innerJoin(users, eq(users.id, page.userId))
    .innerJoin(categories, eq(categories.id, page.categoryId))
    .orderBy(
      ...(newestFirst
        ? [desc(page.createdAt), desc(page.id)]
        : [desc(page.isFeatured), desc(page.createdAt), desc(page.id)]),
    );
}
export type PostRow = Awaited<ReturnType<typeof selectPosts>>[number];

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
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Featured first, then newest first; keyset-paged on (isFeatured, createdAt, id), all descending. As anyone sees it:
 * the route adds a signed-in reader's own reactions to the (cached) page.
 */
export async function listPosts(deps: Pick<Deps, "db">, query: PostListQuery) {
  const filters = postFilters(query);
  if (query.cursor) {
    const [featured, at, id] = decodeCursor(query.cursor, cursorShapes.featuredTimeId);
    filters.push(
      sql`(${posts.isFeatured}, ${posts.createdAt}, ${posts.id}) < (${featured}, ${at}::timestamptz, ${id}::uuid)`,
    );
  }
  const rows = await selectPosts(deps, null, { where: and(...filters), limit: query.limit + 1 });
  const page = toPage(rows, query.limit, (row) => [row.isFeatured, row.cursorAt, row.id]);
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

/** The newest posts, whatever is featured: what feeds carry. */
export async function listNewestPosts(
  deps: Pick<Deps, "db">,
  query: { category?: string | undefined; author?: string | undefined; limit: number },
) {
  const rows = await selectPosts(deps, null, {
    where: and(...postFilters(query)),
    limit: query.limit,
    newestFirst: true,
  });
  return rows.map(toPost);
}

/** Every post's address and last change, oldest first, a sitemap file at a time. */
export async function listPostDates(deps: Pick<Deps, "db">, page: { offset: number; limit: number }) {
  return deps.db
    .select({ id: posts.id, updatedAt: posts.updatedAt })
    .from(posts)
    .orderBy(posts.createdAt, posts.id)
    .offset(page.offset)
    .limit(page.limit);
}

export const countPosts = (deps: Pick<Deps, "db">) => deps.db.$count(posts);
