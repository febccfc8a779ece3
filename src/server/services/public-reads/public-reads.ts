import type { Comment } from "#shared/schemas/comments.ts";
import type { PageQuery } from "#shared/schemas/pagination.ts";
import type { Post, PostDetail, PostListQuery } from "#shared/schemas/posts.ts";
import type { SiteSettings } from "#shared/schemas/settings.ts";
import { HttpError } from "../../http-error.ts";
import type { CachedResponse, Format, ReadCache, ReadFrom } from "../../infra/read-cache.ts";
import { findCategoryTitle, listCategories } from "../content/categories.ts";
import { listComments } from "../content/comments.ts";
import { reactionsOf } from "../content/reaction-queries.ts";
import {
  findPosts,
  firstComments,
  getPostBody,
  getPostDetail,
  type PostCounts,
  postCounts,
} from "../content/shown-posts.ts";
import type { Deps } from "../core/deps.ts";
import { requirePublished } from "../core/post-queries.ts";
import { cacheTags } from "../core/tags.ts";
import { renderProvenancePage } from "../provenance/page.ts";
import { type Provenance, readProvenance } from "../provenance/revisions.ts";
import { readSettings } from "../settings.ts";

type Page<T> = { items: T[]; nextCursor: string | null };
type Reaction = "like" | "dislike";

/** What a list of posts shows: each post, its author, and (being a list) any post that may join it. */
const postsTags = (page: { items: Post[] }) => [
  cacheTags.posts,
  ...page.items.flatMap((post) => [cacheTags.post(post.id), cacheTags.user(post.user.id)]),
];
const commentsTags = (postId: string, comments: Comment[]) => [
  cacheTags.post(postId),
  cacheTags.comments(postId),
  cacheTags.newComment(postId),
  ...comments.map((comment) => cacheTags.user(comment.user.id)),
];
/** What a rendered page leaves to its expiry: counts (decision 016) and new comments (decision 019). */
const FOLLOWED_LATER = [cacheTags.counts(""), cacheTags.newComment("")];
const countsTags = (shown: Post[]) => shown.map((post) => cacheTags.counts(post.id));
const PROVENANCE_PAGE: Format = {
  type: "text/html; charset=utf-8",
  encode: (value) => (value as { html: string }).html,
  kept: (value) => ({ ...(value as { html: string }), html: "" }),
};
const isNotFound = (error: unknown) => error instanceof HttpError && error.statusCode === 404;

/**
 * Every public read served from memory, each key and its tags written once: the API routes, the reader pages'
 * loaders and the feeds ask here, with the same keys, so a page and the API share entries. Values are the answers'
 * JSON shapes, so a page renderer uses them as they are. What drops them is what writes tell `deps.changed`.
 */
export function createPublicReads(cache: ReadCache, deps: Deps) {
  /** The current counts of `shown`: kept per post (a like drops its post's alone). */
  function keepCounts(shown: (PostCounts & { id: string })[], readAt: number) {
    for (const { id, likesCount, disLikesCount, commentsCount } of shown) {
      const counts: PostCounts = { likesCount, disLikesCount, commentsCount };
      cache.setValue(`counts:${id}`, counts, readAt, [cacheTags.counts(id), cacheTags.post(id)]);
    }
  }

  /** The counts of `ids`, the missing ones read in one query by primary key. */
  async function countsOf(ids: string[]): Promise<Map<string, PostCounts>> {
    const found = new Map<string, PostCounts>();
    for (const id of ids) {
      const kept = cache.getValue(`counts:${id}`) as PostCounts | undefined;
      if (kept) found.set(id, kept);
    }
    const missing = ids.filter((id) => !found.has(id));
    const readAt = cache.clock;
    const read = await postCounts(deps, missing);
    keepCounts(
      [...read].map(([id, counts]) => ({ id, ...counts })),
      readAt,
    );
    for (const [id, counts] of read) found.set(id, counts);
    return found;
  }

  /**
   * An answer showing posts, in two layers: what the posts are (`read`, kept under `key` with `tags`, which readers'
   * likes and comments do not change) and their current counts, put in on the way out.
   */
  async function withCounts<T>(
    key: string,
    read: () => Promise<T>,
    tags: (value: T) => string[],
    shownIn: (value: T) => Post[],
    put: (value: T, counts: Map<string, PostCounts>) => T,
  ) {
    return cache.through(
      key,
      async () => {
        // Posts read from the database just now come with their current counts: those are kept as they are.
        let fresh: { value: T; readAt: number } | undefined;
        const readFresh = async () => {
          const readAt = cache.clock;
          fresh = { value: await read(), readAt };
          return fresh.value;
        };
        const inner = (await cache.through(`without-counts:${key}`, readFresh, tags)).value as T;
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

  /**
   * A signed-in reader's copy of the cached answer `shared` (kept under `key`), which shows the posts `shown`:
   * `merge` adds their own reactions. Kept until either changes; their reactions to these posts are kept too, so
   * someone else's like remakes the copy from memory.
   */
  async function withOwnReactions(
    readerId: string,
    key: string,
    shared: CachedResponse,
    shown: Post[],
    merge: (own: Record<string, Reaction>) => unknown,
  ): Promise<CachedResponse> {
    const copyKey = `own:${readerId}:${key}`;
    const hit = cache.getDerived(copyKey);
    if (hit) return hit;
    const ids = shown.map((post) => post.id);
    const reactionTags = ids.map((id) => cacheTags.reaction(readerId, id));
    const readAt = cache.clock;
    const reactionsKey = `reactions:${readerId}:${ids.join(",")}`;
    let own = cache.getValue(reactionsKey) as Record<string, Reaction> | undefined;
    if (!own) {
      own = Object.fromEntries(await reactionsOf(deps, readerId, ids)) as Record<string, Reaction>;
      cache.setValue(reactionsKey, own, readAt, [...reactionTags, ...ids.map(cacheTags.post)]);
    }
    return cache.setDerived(copyKey, merge(own), [shared, { readAt, tags: reactionTags }]);
  }

  /**
   * `GET /api/posts/{id}/provenance` as anyone sees it: whether the post still matches its latest revision is
   * computed when the cache cannot answer, and kept until the post or its author (their wallet) changes.
   */
  const provenance = (postId: string) =>
    cache.through(
      `provenance:${postId}`,
      async () => ({ ...(await readProvenance(deps, postId)), toSign: null }),
      (answer: Provenance) => [cacheTags.post(postId), cacheTags.user(answer.authorId)],
    );

  const postsPageKey = (query: PostListQuery) => `posts:${JSON.stringify(query)}`;
  const postDetailKey = (id: string) => `post:${id}`;

  /** `GET /api/posts`: a page of a list or of search results; `beforeRead` runs only when the cache cannot answer. */
  const postsPage = (query: PostListQuery, beforeRead: () => Promise<void> = async () => {}) =>
    withCounts(
      postsPageKey(query),
      async () => {
        await beforeRead();
        return findPosts(deps, query);
      },
      postsTags,
      (page) => page.items,
      (page, counts) => ({ ...page, items: page.items.map((post) => counted(post, counts)) }),
    );

  /**
   * `GET /api/posts/{id}` of a published post (a 404 otherwise, which is not kept), in three layers: the post as its
   * author wrote it, its first comments, and its counts. A comment costs it two small queries, a like one.
   */
  const postDetail = (id: string) =>
    cache.through(
      postDetailKey(id),
      async (): Promise<PostDetail> => {
        const body = await cache.through(
          `post-body:${id}`,
          async () => {
            const readAt = cache.clock;
            const post = await getPostBody(deps, id);
            keepCounts([post], readAt);
            return post;
          },
          (post) => [cacheTags.post(id), cacheTags.user(post.user.id)],
        );
        const comments = await cache.through(
          `post-comments:${id}`,
          () => firstComments(deps, id),
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
    );

  return {
    postsPage,
    postDetail,

    /** A page of posts as `readerId` sees it: with their own reactions when they are signed in. */
    async postsPageFor(query: PostListQuery, readerId: string | null, beforeRead?: () => Promise<void>) {
      const page = await postsPage(query, beforeRead);
      if (!readerId) return page;
      const { items, nextCursor } = page.value as Page<Post>;
      return withOwnReactions(readerId, postsPageKey(query), page, items, (own) => ({
        items: items.map((post) => ({ ...post, viewerReaction: own[post.id] ?? null })),
        nextCursor,
      }));
    },

    /**
     * A post as `readerId` sees it: a published one from memory (with their reaction), their own draft or
     * scheduled post straight from the database (`unpublished`: the cache holds public answers only).
     */
    async postFor(
      id: string,
      readerId: string | null,
    ): Promise<{ entry: CachedResponse } | { unpublished: PostDetail }> {
      const detail = await postDetail(id).catch((error) => {
        if (readerId && isNotFound(error)) return null;
        throw error;
      });
      if (!detail) return { unpublished: await getPostDetail(deps, id, readerId as string) };
      if (!readerId) return { entry: detail };
      const post = detail.value as PostDetail;
      const entry = await withOwnReactions(readerId, postDetailKey(id), detail, [post], (own) => ({
        ...post,
        viewerReaction: own[id] ?? null,
      }));
      return { entry };
    },

    provenance,

    /** The provenance page (/posts/{id}/provenance): rendered from the answer above, kept as long as it is. */
    provenancePage: (postId: string) =>
      cache.through(
        `provenance-page:${postId}`,
        async () => {
          const answer = (await provenance(postId)).value as Provenance;
          const settings = (
            await cache.through(
              "settings",
              () => readSettings(deps),
              () => [cacheTags.settings],
            )
          ).value as SiteSettings;
          const site = { siteName: settings.siteName, chainId: deps.config.chain.id, publicUrl: deps.config.publicUrl };
          return { html: renderProvenancePage(answer, site), authorId: answer.authorId };
        },
        (page: { authorId: string }) => [cacheTags.post(postId), cacheTags.user(page.authorId), cacheTags.settings],
        PROVENANCE_PAGE,
      ),

    commentsPage: (postId: string, query: PageQuery) =>
      cache.through(
        `comments:${postId}:${JSON.stringify(query)}`,
        async () => {
          await requirePublished(deps, postId);
          return listComments(deps, postId, query);
        },
        (page: Page<Comment>) => commentsTags(postId, page.items),
      ),

    categoriesPage: (query: PageQuery) =>
      cache.through(
        `categories:${JSON.stringify(query)}`,
        () => listCategories(deps, null, query),
        () => [cacheTags.categories],
      ),

    /**
     * A category's title as stored, or null: an unknown one must not become a page. Only known titles are kept, so
     * addresses naming made-up categories cannot crowd real answers out of the cache.
     */
    categoryTitle: (title: string) =>
      cache
        .through(
          `category:${title.toLowerCase()}`,
          async () => {
            const found = await findCategoryTitle(deps, title);
            if (found === null) throw new HttpError(404, "Category not found");
            return found;
          },
          () => [cacheTags.categories],
        )
        .then(
          (entry) => entry.value as string,
          (error) => {
            if (isNotFound(error)) return null;
            throw error;
          },
        ),

    settings: async () =>
      (
        await cache.through(
          "settings",
          () => readSettings(deps),
          () => [cacheTags.settings],
        )
      ).value as SiteSettings,

    /** A text kept under `key` (a feed, a sitemap) with the tags `tags` gives of what it was written from. */
    text: <T>(key: string, write: () => Promise<T>, tags: (value: T) => string[], format: Format) =>
      cache.through(key, write, tags, format),

    /** A rendered page kept under `key`, if one is. */
    keptPage: (key: string) => cache.getDerived(key),

    /** A rendered page under `key` past its age that nothing it shows changed since: served while it is rendered again. */
    stalePage: (key: string) => cache.staleDerived(key),

    /**
     * Renders a page made from cached answers and keeps it under `key` (when given) with the tags of every answer it
     * was made from but their counts, plus the settings and categories it read as values. `render` lists those
     * answers in `from`.
     */
    async renderedPage<T>(
      key: string | null,
      render: (from: CachedResponse[]) => Promise<{ value: T; keep: boolean }>,
      format: Format,
    ): Promise<{ value: T; entry?: CachedResponse }> {
      const readAt = cache.clock;
      const from: CachedResponse[] = [];
      const { value, keep } = await render(from);
      if (!key || !keep) return { value };
      // Counts and new comments show on the page when it next expires (decisions 016, 019), so the pages of the
      // posts people react to most are not rendered again on every reaction.
      const shown = from
        .flatMap((entry) => entry.tags)
        .filter((tag) => !FOLLOWED_LATER.some((prefix) => tag.startsWith(prefix)));
      const tags = [cacheTags.settings, cacheTags.categories, ...shown];
      const storedAt = Math.min(Date.now(), ...from.map((entry) => entry.storedAt));
      const made: ReadFrom = { readAt, tags, storedAt };
      return { value, entry: cache.setDerived(key, value, [made], format) };
    },
  };
}
export type PublicReads = ReturnType<typeof createPublicReads>;
