import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { EMPTY_ROOT, POSTS_PAGE_SIZE, type ReaderLoaders, type RenderedPage } from "../../../shared/reader-pages.ts";
import type { Category } from "../../../shared/schemas/categories.ts";
import type { Page } from "../../../shared/schemas/pagination.ts";
import type { Post, PostDetail } from "../../../shared/schemas/posts.ts";
import { postIdParamsSchema, postListQuerySchema } from "../../../shared/schemas/posts.ts";
import { HttpError } from "../../http-error.ts";
import { addressKey } from "../../plugins/rate-limits.ts";
import { renderHead } from "./head.ts";

type Render = (url: string, load: ReaderLoaders) => Promise<RenderedPage>;

/**
 * Each loader answers what its API call would, from the same cached reads (plugins/public-reads.ts): the cached
 * value is the answer's JSON shape, so it is used as it is, not parsed again from its bytes.
 */
function loadersFor(app: FastifyInstance, request: FastifyRequest): ReaderLoaders {
  return {
    posts: async (filter) => {
      // The same query, and so the same cache entry, as the browser's `GET /api/posts` for this list.
      const parsed = postListQuerySchema.safeParse({ limit: POSTS_PAGE_SIZE, ...filter });
      if (!parsed.success) return { items: [], nextCursor: null };
      return (await app.reads.postsPage(parsed.data, () => addressKey(request))).value as Page<Post>;
    },
    post: async (id) => {
      if (!postIdParamsSchema.safeParse({ id }).success) return null;
      return app.reads
        .postDetail(id)
        .then((entry) => entry.value as PostDetail)
        .catch((error) => {
          if (error instanceof HttpError && error.statusCode === 404) return null;
          throw error;
        });
    },
    categoryExists: async (title) => (await app.reads.categoryTitle(title)) !== null,
    categories: async () => (await app.reads.categoriesPage({ limit: 100 })).value as Page<Category>,
    settings: () => app.reads.settings(),
  };
}

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

  async function page(request: FastifyRequest, reply: FastifyReply) {
    const { status, head, html } = await render(request.url, loadersFor(app, request));
    // Counted like `GET /api/posts/{id}`: a page load carries no session, so the reader is their address.
    if (head.post) app.views.record({ postId: head.post.id, address: addressKey(request), userId: null });
    const document = template
      // Replaced by functions: a replacement string would read "$'" or "$&" in a post as patterns.
      .replace("</head>", () => `    ${renderHead(head, publicUrl)}\n  </head>`)
      .replace(EMPTY_ROOT, () => html);
    if (head.noindex) reply.header("x-robots-tag", "noindex");
    return reply.code(status).type("text/html; charset=utf-8").header("cache-control", "no-cache").send(document);
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
