import type { FastifyInstance } from "fastify";
import type { Comment } from "#shared/schemas/comments.ts";
import type { PageQuery } from "#shared/schemas/pagination.ts";
import type { Post, PostDetail, PostListQuery } from "#shared/schemas/posts.ts";
import type { SiteSettings } from "#shared/schemas/settings.ts";
import { HttpError } from "../http-error.ts";
import type { CachedResponse } from "../infra/read-cache.ts";
import { findCategoryTitle, listCategories } from "../services/content/categories.ts";
import { listComments } from "../services/content/comments.ts";
import { requirePublished } from "../services/content/post-queries.ts";
import { findPosts, firstComments, getPostBody, type PostCounts, postCounts } from "../services/content/post-reads.ts";
import { reactionsOf } from "../services/content/reactions.ts";
import { readSettings } from "../services/settings.ts";
import { cacheTags, ownThrough } from "./read-cache.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Public reads through the read cache: the API routes and the reader pages ask here, with the same keys. */
    reads: PublicReads;
  }
}

type Page<T> = { items: T[]; nextCursor: string | null };
type Reaction = "like" | "dislike";

/** The cache keys of the reads a signed-in reader's own reactions are added to. */
export const readKeys = {
  postsPage: (query: PostListQuery) => `posts:${JSON.stringify(query)}`,
  postDetail: (id: string) => `post:${id}`,
};

/** What a list of posts shows: each post, its author, and (being a list) any post that may join it. */
const postsTags = (page: { items: Post[] }) => [
  cacheTags.posts,
  ...page.items.flatMap((post) => [cacheTags.post(post.id), cacheTags.user(post.user.id)]),
];
const commentsTags = (postId: string, comments: Comment[]) => [
  cacheTags.post(postId),
  cacheTags.comments(postId),
  ...comments.map((comment) => cacheTags.user(comment.user.id)),
];
const countsTags = (shown: Post[]) => shown.map((post) => cacheTags.counts(post.id));

/**
 * Every cached public read, each key and its tags written once (see plugins/read-cache.ts for what invalidates
 * them). Values are the answers' JSON shapes, so a page renderer uses them as they are.
 */
function createPublicReads(app: FastifyInstance) {
  /**
   * The current counts of `ids`: kept per post (a like drops its post's alone), the missing ones read in one query.
   */
  function keepCounts(shown: (PostCounts & { id: string })[], readAt: number) {
    for (const { id, likesCount, disLikesCount, commentsCount } of shown) {
      const counts: PostCounts = { likesCount, disLikesCount, commentsCount };
      app.readCache.setValue(`counts:${id}`, counts, readAt, [cacheTags.counts(id), cacheTags.post(id)]);
    }
  }

  async function countsOf(ids: string[]): Promise<Map<string, PostCounts>> {
    const found = new Map<string, PostCounts>();
    for (const id of ids) {
      const kept = app.readCache.getValue(`counts:${id}`) as PostCounts | undefined;
      if (kept) found.set(id, kept);
    }
    const missing = ids.filter((id) => !found.has(id));
    const readAt = app.readCache.clock;
    const read = await postCounts(app.deps, missing);
    keepCounts(
      [...read].map(([id, counts]) => ({ id, ...counts })),
      readAt,
    );
    for (const [id, counts] of read) found.set(id, counts);
    return found;
  }

  /**
   * An answer showing posts, in two layers: what the posts are (`read`, kept under `key` with `tags`, which readers'
   * likes and comments do not change) and their current counts, put in on the way out. A like then costs the pages
   * showing its post one small query on the way out, not the page's.
   */
  async function withCounts<T>(
    key: string,
    read: () => Promise<T>,
    tags: (value: T) => string[],
    shownIn: (value: T) => Post[],
    put: (value: T, counts: Map<string, PostCounts>) => T,
  ) {
    return app.readCache.through(
      key,
      async () => {
        // Posts read from the database just now come with their current counts: those are kept as they are.
        let fresh: { value: T; readAt: number } | undefined;
        const readFresh = async () => {
          const readAt = app.readCache.clock;
          fresh = { value: await read(), readAt };
          return fresh.value;
        };
        const inner = (await app.readCache.through(`without-counts:${key}`, readFresh, tags)).value as T;
        if (fresh) keepCounts(shownIn(fresh.value), fresh.readAt);
        return put(inner, await countsOf(shownIn(inner).map((post) => post.id)));
      },
      (value: T) => [...tags(value), ...countsTags(shownIn(value))],
    );
  }
  const counted = <P extends Post>(post: P, counts: Map<string, PostCounts>): P => ({
    ...post,
    ...counts.get(post.id),
  });

  return {
    /** `GET /api/posts`: a page of a list or of search results. Only a search the cache cannot answer is limited. */
    postsPage: (query: PostListQuery, address: () => string) =>
      withCounts(
        readKeys.postsPage(query),
        async () => {
          if (query.q !== undefined) await app.limiter.hit("search", address());
          return findPosts(app.deps, query);
        },
        postsTags,
        (page) => page.items,
        (page, counts) => ({ ...page, items: page.items.map((post) => counted(post, counts)) }),
      ),

    /**
     * `GET /api/posts/{id}` of a published post (a 404 otherwise, which is not kept), in three layers: the post as
     * its author wrote it, its first comments, and its counts. A comment costs the page its comments and counts
     * (two small queries), a like its counts; neither reads the post again.
     */
    postDetail: (id: string) =>
      app.readCache.through(
        readKeys.postDetail(id),
        async (): Promise<PostDetail> => {
          const body = await app.readCache.through(
            `post-body:${id}`,
            async () => {
              const readAt = app.readCache.clock;
              const post = await getPostBody(app.deps, id);
              keepCounts([post], readAt);
              return post;
            },
            (post) => [cacheTags.post(id), cacheTags.user(post.user.id)],
          );
          const comments = await app.readCache.through(
            `post-comments:${id}`,
            () => firstComments(app.deps, id),
            (page) => commentsTags(id, page.items),
          );
          const post = body.value as Omit<PostDetail, "comments" | "commentsNextCursor">;
          const { items, nextCursor } = comments.value as Page<Comment>;
          const counts = await countsOf([id]);
          return { ...post, ...counts.get(id), comments: items, commentsNextCursor: nextCursor };
        },
        (post) => [
          cacheTags.post(id),
          cacheTags.user(post.user.id),
          ...commentsTags(id, post.comments),
          cacheTags.counts(id),
        ],
      ),

    commentsPage: (postId: string, query: PageQuery) =>
      app.readCache.through(
        `comments:${postId}:${JSON.stringify(query)}`,
        async () => {
          await requirePublished(app.deps, postId);
          return listComments(app.deps, postId, query);
        },
        (page: Page<Comment>) => commentsTags(postId, page.items),
      ),

    categoriesPage: (query: PageQuery) =>
      app.readCache.through(
        `categories:${JSON.stringify(query)}`,
        () => listCategories(app.deps, null, query),
        () => [cacheTags.categories],
      ),

    /**
     * A category's title as stored, or null: an unknown one must not become a page. Only known titles are kept, so
     * addresses naming made-up categories cannot crowd real answers out of the cache.
     */
    categoryTitle: (title: string) =>
      app.readCache
        .through(
          `category:${title.toLowerCase()}`,
          async () => {
            const found = await findCategoryTitle(app.deps, title);
            if (found === null) throw new HttpError(404, "Category not found");
            return found;
          },
          () => [cacheTags.categories],
        )
        .then(
          (entry) => entry.value as string,
          (error) => {
            if (error instanceof HttpError && error.statusCode === 404) return null;
            throw error;
          },
        ),

    settings: async () =>
      (
        await app.readCache.through(
          "settings",
          () => readSettings(app.deps),
          () => [cacheTags.settings],
        )
      ).value as SiteSettings,

    /**
     * A signed-in reader's copy of the cached answer under `key` (`shared`), which shows the posts `shown`: `merge`
     * adds their own reactions to them. Dropped with the shared answer, or when they react to one of those posts.
     */
    withOwnReactions: (
      userId: string,
      key: string,
      shared: CachedResponse,
      shown: Post[],
      merge: (own: Record<string, Reaction>) => unknown,
    ) => {
      const ids = shown.map((post) => post.id);
      const reactionTags = ids.map((id) => cacheTags.reaction(userId, id));
      return ownThrough(app, `own:${userId}:${key}`, shared, reactionTags, async () => {
        // Their reactions to these posts are kept too: a like by someone else remakes the copy from memory.
        const reactionsKey = `reactions:${userId}:${ids.join(",")}`;
        let own = app.readCache.getValue(reactionsKey) as Record<string, Reaction> | undefined;
        if (!own) {
          const readAt = app.readCache.clock;
          own = Object.fromEntries(await reactionsOf(app.deps, userId, ids)) as Record<string, Reaction>;
          app.readCache.setValue(reactionsKey, own, readAt, [...reactionTags, ...ids.map(cacheTags.post)]);
        }
        return merge(own);
      });
    },
  };
}
export type PublicReads = ReturnType<typeof createPublicReads>;

export function registerPublicReads(app: FastifyInstance) {
  app.decorate("reads", createPublicReads(app));
}
