import { and, desc, eq, getTableColumns, inArray, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { Post } from "#shared/schemas/posts.ts";
import type { TipTotals } from "#shared/schemas/tips.ts";
import { categories, payments, postRevisions, posts, reactions, users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { cursorKey } from "../../infra/cursor.ts";
import type { Deps } from "./deps.ts";
import { excerptParts } from "./excerpt.ts";
import { toUserSummary, userSummaryColumns } from "./user-fields.ts";

// Named in full: Drizzle may leave columns unqualified, and a bare "id" inside a subquery binds to its own table.
const OUTER_POST_ID = sql.raw('"posts"."id"');

/** A missing post, and one its reader may not see: a draft is never told apart from a missing post. */
export const POST_NOT_FOUND = "Post not found";

/**
 * What anyone may see: drafts and scheduled posts are their author's alone, and a post a moderator hid or removed
 * has left every public place (its author still sees it, with the reason).
 */
export const isPublished = and(eq(posts.status, "published"), eq(posts.moderation, "visible")) as SQL;

/**
 * What anyone may open at its address: a public post, or a limited author's, which is listed nowhere and not
 * federated but still read, liked and commented on by whoever has its link.
 */
export const isReachable = and(eq(posts.status, "published"), inArray(posts.moderation, ["visible", "limited"])) as SQL;

/** Refuses anything but a published post, as a missing one: drafts take no comments or reactions. */
export async function requirePublished(deps: Pick<Deps, "db">, id: string) {
  const [post] = await deps.db
    .select({ id: posts.id })
    .from(posts)
    .where(and(eq(posts.id, id), isReachable));
  if (!post) throw new HttpError(404, POST_NOT_FOUND);
}

/**
 * The order a page is chosen in; each has an index. A search's (search.ts) ranks its matches, and marks them in an
 * excerpt of each row's text.
 */
type Order = "featured" | "newest" | "edited" | { rank: SQL<number>; headline: (html: SQL) => SQL<string> };

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
  viewerId: string | Placeholder | null,
  {
    where,
    limit,
    order = "featured",
    page: asPage = false,
  }: { where?: SQL | undefined; limit: number; order?: Order; page?: boolean },
) {
  const ranked = typeof order === "object" ? order : null;
  // Aliased "posts", so the counts' references to the outer post stay what they are.
  const page = deps.db
    .select({ ...postColumns, rank: (ranked ? ranked.rank : sql<number>`0`).as("rank") })
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
      moderation: page.moderation,
      moderationReason: page.moderationReason,
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
      // Its latest revision, and the author's wallet that signed it while that wallet is still theirs (provenance/).
      provenance: sql<{ revision: number; signer: string | null } | null>`(select json_build_object('revision',
        ${postRevisions.revision}, 'signer', case when ${users.walletVerifiedAt} <= ${postRevisions.authorSignedAt}
        and lower(${users.walletAddress}) = lower(${postRevisions.authorSigner}) then ${postRevisions.authorSigner} end)
        from ${postRevisions} where ${postRevisions.postId} = ${OUTER_POST_ID}
        order by ${postRevisions.revision} desc limit 1)`,
      // What a post's own page adds (getPostBody): its tips that count, and where they go.
      tips: asPage
        ? sql<TipTotals>`(select json_build_object('count', count(*)::int, 'totalWei', coalesce(sum(${payments.amountWei}), 0)::text)
            from ${payments} where ${payments.postId} = ${OUTER_POST_ID} and ${payments.purpose} = 'tip' and ${payments.status} <> 'reorged')`
        : sql<null>`null`,
      authorWallet: asPage
        ? sql<string | null>`case when ${users.walletVerifiedAt} is not null then ${users.walletAddress} end`
        : sql<null>`null`,
      rank: page.rank,
      headline: ranked ? ranked.headline(sql`${page.description}`) : sql<null>`null`,
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
    moderation: row.moderation === "visible" ? null : { state: row.moderation, reason: row.moderationReason ?? "" },
    publishedAt: row.publishedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    provenance: row.provenance,
    ...(row.headline === null ? {} : { excerpt: excerptParts(row.headline) }),
  };
}

/** The filters a reader can choose: a category (by title, any case) and an author. */
export function postFilters(query: { category?: string | undefined; author?: string | undefined }) {
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
