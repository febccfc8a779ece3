import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { POSTS_PAGE_SIZE, type ReaderLoaders, type RenderedPage } from "../../../shared/reader-pages.ts";
import type { Category } from "../../../shared/schemas/categories.ts";
import type { Page } from "../../../shared/schemas/pagination.ts";
import type { Post, PostDetail } from "../../../shared/schemas/posts.ts";
import { postIdParamsSchema, postListQuerySchema } from "../../../shared/schemas/posts.ts";
import type { SiteSettings } from "../../../shared/schemas/settings.ts";
import { HttpError } from "../../http-error.ts";
import { addressKey } from "../../plugins/rate-limits.ts";
import { excerpt, plainText } from "../../services/content/excerpt.ts";
import { type PageHead, renderHead } from "./head.ts";

type Render = (url: string, load: ReaderLoaders) => Promise<RenderedPage>;

/**
 * Each loader answers what its API call would, from the same cached reads (plugins/public-reads.ts): the cached
 * value is the answer's JSON shape, so it is used as it is, not parsed again from its bytes.
 */
function loadersFor(app: FastifyInstance, request: FastifyRequest) {
  const found: { post?: PostDetail | null; settings?: SiteSettings } = {};
  const loaders: ReaderLoaders = {
    posts: async (filter) => {
      // The same query, and so the same cache entry, as the browser's `GET /api/posts` for this list.
      const parsed = postListQuerySchema.safeParse({ limit: POSTS_PAGE_SIZE, ...filter });
      if (!parsed.success) return { items: [], nextCursor: null };
      return (await app.reads.postsPage(parsed.data, () => addressKey(request))).value as Page<Post>;
    },
    post: async (id) => {
      found.post = null;
      if (!postIdParamsSchema.safeParse({ id }).success) return null;
      found.post = await app.reads
        .postDetail(id)
        .then((entry) => entry.value as PostDetail)
        .catch((error) => {
          if (error instanceof HttpError && error.statusCode === 404) return null;
          throw error;
        });
      return found.post;
    },
    categoryExists: async (title) => (await app.reads.categoryTitle(title)) !== null,
    categories: async () => (await app.reads.categoriesPage({ limit: 100 })).value as Page<Category>,
    settings: async () => {
      found.settings = await app.reads.settings();
      return found.settings;
    },
  };
  return { loaders, found };
}

/**
 * The reader pages (`/`, `/posts`, `/posts/{id}`, `/search`) rendered on the server by the client's own components (built into
 * dist/server), so a visitor sees the text, and a crawler or a link preview its head, from the first response.
 */
export async function registerPages(app: FastifyInstance, options: { clientDir: string; serverDir: string }) {
  const templateFile = path.join(options.clientDir, "index.html");
  const rendererFile = path.join(options.serverDir, "entry-server.js");
  if (!fs.existsSync(templateFile) || !fs.existsSync(rendererFile)) return;
  // The built index.html without its own title and description: each page writes its head.
  const template = fs
    .readFileSync(templateFile, "utf8")
    .replace(/\s*<title>[^<]*<\/title>/, "")
    .replace(/\s*<meta name="description"[^>]*>/, "");
  const { render } = (await import(pathToFileURL(rendererFile).href)) as { render: Render };
  const publicUrl = app.config.publicUrl.replace(/\/$/, "");

  async function page(request: FastifyRequest, reply: FastifyReply, head: (found: FoundData) => PageHead) {
    const { loaders, found } = loadersFor(app, request);
    const rendered = await render(request.url, loaders);
    const settings = found.settings ?? (await loaders.settings());
    const status = rendered.status;
    const html = template
      // Replaced by functions: a replacement string would read "$'" or "$&" in a post as patterns.
      .replace(
        "</head>",
        () => `    ${renderHead(head({ ...found, settings, status }), settings, publicUrl)}\n  </head>`,
      )
      .replace(
        '<div id="root"></div>',
        () =>
          `<div id="root"${rendered.hydrate ? " data-hydrate" : ""}>${rendered.html}</div>\n    <script type="application/json" id="page-state">${rendered.state.replace(/</g, "\\u003c")}</script>`,
      );
    return reply.code(rendered.status).type("text/html; charset=utf-8").header("cache-control", "no-cache").send(html);
  }

  const hide = { schema: { hide: true } };
  // What an unknown category's address answers: not a page, so nothing the address says is shown as a title.
  const categoryNotFound: PageHead = {
    title: "Category not found",
    description: "There is no such category.",
    path: "/posts",
    feeds: [],
    noindex: true,
  };

  app.get("/", hide, (request, reply) =>
    page(request, reply, (found) => ({
      title: "",
      description: found.settings.siteDescription || `${found.settings.siteName}: a multi-user blog.`,
      path: "/",
      feeds: [{ title: `${found.settings.siteName}: all posts`, path: "/rss.xml" }],
    })),
  );

  app.get("/posts", hide, (request, reply) => {
    const category = new URL(request.url, "http://localhost").searchParams.get("category") ?? "";
    return page(request, reply, (found) =>
      found.status === 404
        ? categoryNotFound
        : {
            title: category ? `${category} | Latest Blogs` : "Latest Blogs",
            description: category
              ? `The latest posts about ${category} on ${found.settings.siteName}.`
              : `The latest posts on ${found.settings.siteName}.`,
            path: category ? `/posts?category=${encodeURIComponent(category)}` : "/posts",
            feeds: [
              { title: `${found.settings.siteName}: all posts`, path: "/rss.xml" },
              ...(category
                ? [
                    {
                      title: `${found.settings.siteName}: ${category}`,
                      path: `/rss.xml?category=${encodeURIComponent(category)}`,
                    },
                  ]
                : []),
            ],
          },
    );
  });

  // Search results: rendered like the lists, kept out of search engines (what a reader typed is not a page).
  app.get("/search", hide, (request, reply) => {
    const q = new URL(request.url, "http://localhost").searchParams.get("q")?.trim() ?? "";
    return page(request, reply, (found) => ({
      title: q ? `Search: ${q}` : "Search",
      description: `Search the posts on ${found.settings.siteName}.`,
      path: "/search",
      feeds: [{ title: `${found.settings.siteName}: all posts`, path: "/rss.xml" }],
      noindex: true,
    }));
  });

  app.get("/posts/:id", hide, (request, reply) => {
    const { id } = request.params as { id: string };
    return page(request, reply, (found) => {
      const post = found.post;
      // Counted like `GET /api/posts/{id}`: a page load carries no session, so the reader is their address.
      if (post) app.views.record({ postId: post.id, address: addressKey(request), userId: null });
      if (!post) {
        return {
          title: "Post not found",
          description: "This post does not exist or was deleted.",
          path: `/posts/${encodeURIComponent(id)}`,
          feeds: [],
          noindex: true,
        };
      }
      return {
        title: post.title,
        description: excerpt(plainText(post.description)),
        path: `/posts/${post.id}`,
        post: post as Post,
        feeds: [
          { title: `${found.settings.siteName}: all posts`, path: "/rss.xml" },
          {
            title: `${found.settings.siteName}: ${post.category}`,
            path: `/rss.xml?category=${encodeURIComponent(post.category)}`,
          },
          {
            title: `${found.settings.siteName}: ${post.user.firstName} ${post.user.lastName}`,
            path: `/rss.xml?author=${post.user.id}`,
          },
        ],
      };
    });
  });
}

type FoundData = { post?: PostDetail | null; settings: SiteSettings; status: number };
