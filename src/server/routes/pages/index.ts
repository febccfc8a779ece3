import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { EMPTY_ROOT, POSTS_PAGE_SIZE, type ReaderLoaders, type RenderedPage } from "#shared/reader-pages.ts";
import type { Category } from "#shared/schemas/categories.ts";
import type { Page } from "#shared/schemas/pagination.ts";
import type { Post, PostDetail } from "#shared/schemas/posts.ts";
import { postIdParamsSchema, postListQuerySchema } from "#shared/schemas/posts.ts";
import { HttpError } from "../../http-error.ts";
import { perSecond } from "../../infra/per-second.ts";
import type { CachedResponse, Format } from "../../infra/read-cache.ts";
import { sendCompressed, varyOn } from "../../plugins/compression.ts";
import { addressKey } from "../../plugins/rate-limits.ts";
import { sendCached } from "../../plugins/read-cache.ts";
import { readRequestOf } from "../../plugins/read-request.ts";
import { recordRead } from "../../services/stats/record.ts";
import { renderHead } from "./head.ts";

type Render = (url: string, load: ReaderLoaders) => Promise<RenderedPage>;

/**
 * Each loader answers what its API call would, from the same cached reads (services/public-reads/public-reads.ts): the cached
 * value is the answer's JSON shape, so it is used as it is, not parsed again from its bytes. The answers a page was
 * made from are added to `from`, so the page is kept as long as they are.
 */
function loadersFor(app: FastifyInstance, request: FastifyRequest, from: CachedResponse[]): ReaderLoaders {
  const used = (entry: CachedResponse) => {
    from.push(entry);
    return entry.value;
  };
  return {
    posts: async (filter) => {
      // The same query, and so the same cache entry, as the browser's `GET /api/posts` for this list.
      const parsed = postListQuerySchema.safeParse({ limit: POSTS_PAGE_SIZE, ...filter });
      if (!parsed.success) return { items: [], nextCursor: null };
      const search = async () => {
        if (parsed.data.q !== undefined) await app.limiter.hit("search", addressKey(request));
      };
      return used(await app.reads.postsPage(parsed.data, search)) as Page<Post>;
    },
    post: async (id) => {
      if (!postIdParamsSchema.safeParse({ id }).success) return null;
      return app.reads
        .postDetail(id)
        .then((entry) => used(entry) as PostDetail)
        .catch((error) => {
          if (error instanceof HttpError && error.statusCode === 404) return null;
          throw error;
        });
    },
    categoryExists: async (title) => (await app.reads.categoryTitle(title)) !== null,
    categories: async () => used(await app.reads.categoriesPage({ limit: 100 })) as Page<Category>,
    settings: () => app.reads.settings(),
  };
}

/** A rendered page as it is kept: the document, and what its answer says beside it. */
interface PageAnswer {
  document: string;
  status: number;
  /** The post it shows, whose view each answer counts. */
  postId: string | null;
  noindex: boolean;
}
const HTML: Format = {
  type: "text/html; charset=utf-8",
  encode: (value) => (value as PageAnswer).document,
  kept: (value) => ({ ...(value as PageAnswer), document: "" }),
};

/** Only the query parameters the renderer reads: other addresses are rendered each time, not kept. */
const PAGE_PARAMS = new Set(["category", "q", "author"]);

/**
 * Where a page's answer is kept, or null when it is not: made-up query parameters must not crowd real answers out
 * of the cache, and a token in an address (a password reset's) has no place in it.
 */
function pageKey(url: string): string | null {
  const { pathname, searchParams } = new URL(url, "http://localhost");
  for (const name of searchParams.keys()) if (!PAGE_PARAMS.has(name)) return null;
  // One key whatever the parameters' order.
  searchParams.sort();
  return `page:${pathname}?${searchParams}`;
}

/**
 * Expired pages rendered again each second at most. Under a busy site's reactions every hot page expires every
 * READ_CACHE_MAX_AGE_MS; a render costs milliseconds, so without a bound re-rendering alone can take a core.
 */
const RERENDERS_PER_SECOND = 5;

/** The built index.html without its own title and description: each rendered page writes its head. */
function readTemplate(file: string) {
  return fs
    .readFileSync(file, "utf8")
    .replace(/\s*<title>[^<]*<\/title>/, "")
    .replace(/\s*<meta name="description"[^>]*>/, "");
}

/**
 * The reader pages (`/`, `/posts`, `/posts/{id}`, `/search`) a visitor's forms (`/login`, `/register`,
 * `/password-reset-token`) and Create Blog's empty form, rendered on the server by the client's own components
 * (built into dist/server), so a visitor sees the text, and a crawler or a link preview its head, from the first
 * response. The renderer decides the page; this only puts it into the template.
 */
export async function registerPages(app: FastifyInstance, options: { clientDir: string; serverDir: string }) {
  const templateFile = path.join(options.clientDir, "index.html");
  const rendererFile = path.join(options.serverDir, "entry-server.js");
  if (!fs.existsSync(templateFile) || !fs.existsSync(rendererFile)) return;
  const template = readTemplate(templateFile);
  const { render } = (await import(pathToFileURL(rendererFile).href)) as { render: Render };
  const publicUrl = app.config.publicUrl.replace(/\/$/, "");

  /**
   * Renders the page at `request.url`. A found page under a `key` is kept, like the answers it shows, until one of
   * them changes: it is the same for every visitor (pages carry no session), so it is rendered once, not at every
   * visit. The answer comes back with its kept entry when it was kept.
   */
  async function renderPage(request: FastifyRequest, key: string | null) {
    return app.reads.renderedPage(
      key,
      async (from) => {
        const { status, head, html, styles } = await render(request.url, loadersFor(app, request, from));
        const document = template
          // Replaced by functions: a replacement string would read "$'" or "$&" in a post as patterns.
          .replace("</head>", () => `    ${renderHead(head, publicUrl)}\n    ${styles}\n  </head>`)
          .replace(EMPTY_ROOT, () => html);
        const postId = head.post?.id ?? null;
        return { value: { document, status, postId, noindex: Boolean(head.noindex) }, keep: status === 200 };
      },
      HTML,
    );
  }

  /** Pages being rendered again in the background, while their expired copy is served. */
  const rendering = new Set<string>();
  const rerenders = perSecond(RERENDERS_PER_SECOND);
  /**
   * An expired page nothing changed since: served at once, and rendered again (once) for the next reader, as the
   * budget allows; past it, the page waits for a later reader's turn (decision 019).
   */
  function staleWhileRendering(request: FastifyRequest, key: string) {
    const stale = app.reads.stalePage(key);
    if (stale && !rendering.has(key) && rerenders.take()) {
      rendering.add(key);
      renderPage(request, key)
        .catch((error) => request.log.warn({ err: error }, "a page could not be rendered again"))
        .finally(() => rendering.delete(key));
    }
    return stale;
  }

  async function page(request: FastifyRequest, reply: FastifyReply) {
    const key = pageKey(request.url);
    const kept = key ? (app.reads.keptPage(key) ?? staleWhileRendering(request, key)) : undefined;
    const { value, entry } = kept ? { value: kept.value, entry: kept } : await renderPage(request, key);
    const answer = value as PageAnswer;
    // Counted like `GET /api/posts/{id}`: a page load carries no session, so the reader is their address.
    if (answer.postId) {
      app.views.record({ postId: answer.postId, address: addressKey(request), userId: null });
      recordRead(
        request.deps,
        app.stats,
        readRequestOf(request, {
          kind: "post",
          targetId: answer.postId,
          referrer: request.headers.referer,
          url: request.url,
        }),
      );
    }
    if (answer.noindex) reply.header("x-robots-tag", "noindex");
    reply.code(answer.status).header("cache-control", "no-cache");
    // A post's address answers ActivityStreams JSON to the fediverse: caches must not mix the two.
    if (answer.postId) varyOn(reply, "accept");
    if (entry) return sendCached(request, reply, entry);
    // Compressed in one go: a streaming compressor per page held megabytes each until collected.
    return sendCompressed(request, reply.type(HTML.type), { body: Buffer.from(answer.document), compressed: {} });
  }

  const rendered = [
    "/",
    "/posts",
    "/search",
    "/posts/:id",
    "/login",
    "/register",
    "/password-reset-token",
    "/create-post",
  ];
  for (const url of rendered) {
    app.get(url, { schema: { hide: true } }, page);
  }
}
