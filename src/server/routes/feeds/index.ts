import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import type { Post } from "#shared/schemas/posts.ts";
import { excerpt, plainText } from "#shared/text.ts";
import type { Format } from "../../infra/read-cache.ts";
import { cacheTags, sendCached } from "../../plugins/read-cache.ts";
import { countPosts, listNewestPosts, listPostDates } from "../../services/content/post-reads.ts";
import { rss2, sitemapIndex, urlSet } from "./rss.ts";

const FEED_SIZE = 20;
/** The sitemap protocol's limit is 50,000 addresses a file; a few go to the fixed pages. */
const SITEMAP_SIZE = 49_000;

const feedQuerySchema = z.object({
  category: z.string().trim().max(60).optional(),
  author: z.uuid().optional(),
});

/**
 * Discovery: an RSS feed of the newest posts (the site's, a category's with `?category=`, an author's with
 * `?author=`), the sitemap (an index of sitemap files once it outgrows one) and robots.txt naming it. Every address
 * in them is built from PUBLIC_URL and validated values, never from what the request said.
 */
export const feedRoutes: FastifyPluginAsync = async (app) => {
  const base = app.config.publicUrl.replace(/\/$/, "");
  const hide = { schema: { hide: true } };
  /** Feeds and sitemaps are kept as the text they are sent as (a sitemap file past the last is kept as null). */
  const asText = (type: string): Format => ({ type, encode: (text) => (text as string | null) ?? "" });
  const rss = asText("application/rss+xml; charset=utf-8");
  const xml = asText("application/xml; charset=utf-8");
  const sitemapTags = () => [cacheTags.posts];

  app.get("/rss.xml", hide, async (request, reply) => {
    const parsed = feedQuerySchema.safeParse(request.query);
    if (!parsed.success)
      return reply.code(400).send({ message: "Unknown feed: ?category= takes a title, ?author= an id" });
    const query = parsed.data;
    const category = query.category ? await app.reads.categoryTitle(query.category) : undefined;
    if (category === null) return reply.code(404).send({ message: "No such category" });
    // Only the feed's text is kept; the posts it was written from give its tags.
    let shown: Post[] = [];
    const entry = await app.readCache.through(
      `feed:${JSON.stringify({ category, author: query.author })}`,
      async () => {
        const [settings, posts] = await Promise.all([
          app.reads.settings(),
          listNewestPosts(app.deps, { category, author: query.author, limit: FEED_SIZE }),
        ]);
        const scope = category ?? (query.author && posts[0] ? authorName(posts[0]) : null);
        const self = new URL(`${base}/rss.xml`);
        if (category) self.searchParams.set("category", category);
        if (query.author) self.searchParams.set("author", query.author);
        shown = posts;
        return rss2(
          {
            title: scope ? `${settings.siteName}: ${scope}` : settings.siteName,
            description: settings.siteDescription || settings.siteName,
            link: category ? `${base}/posts?category=${encodeURIComponent(category)}` : `${base}/posts`,
            self: self.href,
            language: "en",
            copyright: `${settings.siteName} and its authors`,
            updated: posts[0] ? new Date(posts[0].updatedAt) : new Date(0),
          },
          posts.map((post) => ({
            title: post.title,
            link: `${base}/posts/${post.id}`,
            description: excerpt(plainText(post.description), 300),
            content: post.description,
            author: authorName(post),
            date: new Date(post.publishedAt ?? post.createdAt),
            category: post.category,
            image: post.image ? absolute(post.image) : undefined,
          })),
        );
      },
      () => [
        cacheTags.posts,
        cacheTags.settings,
        ...shown.flatMap((post) => [cacheTags.post(post.id), cacheTags.user(post.user.id)]),
      ],
      rss,
    );
    return sendCached(request, reply, entry);
  });

  app.get("/sitemap.xml", hide, async (request, reply) => {
    const entry = await app.readCache.through(
      "sitemap",
      async () => {
        const total = await countPosts(app.deps);
        if (total <= SITEMAP_SIZE) return urlSet([...fixedPages(), ...(await postUrls(0))]);
        const files = Math.ceil(total / SITEMAP_SIZE);
        return sitemapIndex(Array.from({ length: files }, (_, index) => `${base}/sitemap-${index + 1}.xml`));
      },
      sitemapTags,
      xml,
    );
    return sendCached(request, reply, entry);
  });

  app.get("/sitemap-:file.xml", hide, async (request, reply) => {
    const { file: name } = request.params as { file: string };
    const file = Number(name);
    if (!/^[1-9]\d{0,3}$/.test(name)) return reply.code(404).send({ message: "No such sitemap" });
    const entry = await app.readCache.through(
      `sitemap:${file}`,
      async () => {
        const urls = await postUrls((file - 1) * SITEMAP_SIZE);
        return urls.length === 0 ? null : urlSet([...(file === 1 ? fixedPages() : []), ...urls]);
      },
      sitemapTags,
      xml,
    );
    if (entry.value === null) return reply.code(404).send({ message: "No such sitemap" });
    return sendCached(request, reply, entry);
  });

  app.get("/robots.txt", hide, async (_request, reply) =>
    reply
      .type("text/plain; charset=utf-8")
      .send(`User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${base}/sitemap.xml\n`),
  );

  const fixedPages = () => [{ loc: `${base}/` }, { loc: `${base}/posts` }];

  async function postUrls(offset: number) {
    const rows = await listPostDates(app.deps, { offset, limit: SITEMAP_SIZE });
    return rows.map((row) => ({ loc: `${base}/posts/${row.id}`, lastmod: row.updatedAt.toISOString() }));
  }

  const authorName = (post: Post) => `${post.user.firstName} ${post.user.lastName}`;
  const absolute = (url: string) => (/^https?:\/\//.test(url) ? url : `${base}${url}`);
};
