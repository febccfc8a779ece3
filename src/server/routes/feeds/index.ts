import type { FastifyPluginAsync } from "fastify";
import { Feed } from "feed";
import { z } from "zod";
import { readThrough } from "../../plugins/read-cache.ts";
import { countPosts, listNewestPosts, listPostDates } from "../../services/content/post-queries.ts";
import { readSettings } from "../../services/settings.ts";
import { escapeHtml, excerpt, plainText } from "../pages/head.ts";

const FEED_SIZE = 20;
/** The sitemap protocol's limit is 50,000 addresses a file; a few go to the fixed pages. */
const SITEMAP_SIZE = 49_000;

const feedQuerySchema = z.object({
  category: z.string().trim().max(60).optional(),
  author: z.uuid().optional(),
});

/**
 * Discovery: an RSS feed of the newest posts (the site's, a category's with `?category=`, an author's with
 * `?author=`), the sitemap (an index of sitemap files once it outgrows one) and robots.txt naming it.
 */
export const feedRoutes: FastifyPluginAsync = async (app) => {
  const base = app.config.publicUrl.replace(/\/$/, "");
  const hide = { schema: { hide: true } };
  const xml = "application/xml; charset=utf-8";

  app.get("/rss.xml", hide, async (request, reply) => {
    const parsed = feedQuerySchema.safeParse(request.query);
    if (!parsed.success)
      return reply.code(400).send({ message: "Unknown feed: ?category= takes a title, ?author= an id" });
    const query = parsed.data;
    const entry = await readThrough(app, `feed:${JSON.stringify(query)}`, async () => {
      const [settings, posts] = await Promise.all([
        readSettings(app.deps),
        listNewestPosts(app.deps, { ...query, limit: FEED_SIZE }),
      ]);
      const scope =
        query.category ?? (query.author && posts[0] ? `${posts[0].user.firstName} ${posts[0].user.lastName}` : null);
      const feed = new Feed({
        title: scope ? `${settings.siteName}: ${scope}` : settings.siteName,
        description: settings.siteDescription,
        id: `${base}/`,
        link: query.category ? `${base}/posts?category=${encodeURIComponent(query.category)}` : `${base}/posts`,
        language: "en",
        copyright: `${settings.siteName} and its authors`,
        updated: posts[0] ? new Date(posts[0].updatedAt) : new Date(0),
        generator: "Penchain",
        feedLinks: { rss: `${base}${request.url}` },
      });
      for (const post of posts) {
        const link = `${base}/posts/${post.id}`;
        feed.addItem({
          title: post.title,
          id: link,
          link,
          description: excerpt(plainText(post.description), 300),
          content: post.description,
          author: [{ name: `${post.user.firstName} ${post.user.lastName}`, link: `${base}/profile/${post.user.id}` }],
          date: new Date(post.publishedAt ?? post.createdAt),
          category: [{ name: post.category }],
          ...(post.image ? { image: absolute(post.image) } : {}),
        });
      }
      return feed.rss2();
    });
    return reply.type("application/rss+xml; charset=utf-8").header("cache-control", "no-cache").send(entry.value);
  });

  app.get("/sitemap.xml", hide, async (_request, reply) => {
    const entry = await readThrough(app, "sitemap", async () => {
      const total = await countPosts(app.deps);
      if (total <= SITEMAP_SIZE) return urlSet([{ loc: `${base}/` }, { loc: `${base}/posts` }, ...(await postUrls(0))]);
      const files = Math.ceil(total / SITEMAP_SIZE);
      const items = Array.from(
        { length: files },
        (_, index) => `  <sitemap><loc>${base}/sitemap-${index + 1}.xml</loc></sitemap>`,
      );
      return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join("\n")}\n</sitemapindex>\n`;
    });
    return reply.type(xml).header("cache-control", "no-cache").send(entry.value);
  });

  app.get("/sitemap-:file.xml", hide, async (request, reply) => {
    const file = Number((request.params as { file: string }).file);
    if (!Number.isInteger(file) || file < 1 || file > 10_000)
      return reply.code(404).send({ message: "No such sitemap" });
    const entry = await readThrough(app, `sitemap:${file}`, async () => {
      const urls = await postUrls((file - 1) * SITEMAP_SIZE);
      return urls.length === 0
        ? null
        : urlSet([...(file === 1 ? [{ loc: `${base}/` }, { loc: `${base}/posts` }] : []), ...urls]);
    });
    if (entry.value === null) return reply.code(404).send({ message: "No such sitemap" });
    return reply.type(xml).header("cache-control", "no-cache").send(entry.value);
  });

  app.get("/robots.txt", hide, async (_request, reply) =>
    reply
      .type("text/plain; charset=utf-8")
      .send(`User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${base}/sitemap.xml\n`),
  );

  async function postUrls(offset: number) {
    const rows = await listPostDates(app.deps, { offset, limit: SITEMAP_SIZE });
    return rows.map((row) => ({ loc: `${base}/posts/${row.id}`, lastmod: row.updatedAt.toISOString() }));
  }

  function urlSet(urls: { loc: string; lastmod?: string }[]) {
    const items = urls.map(
      (url) =>
        `  <url><loc>${escapeHtml(url.loc)}</loc>${url.lastmod ? `<lastmod>${url.lastmod}</lastmod>` : ""}</url>`,
    );
    return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join("\n")}\n</urlset>\n`;
  }

  const absolute = (url: string) => (/^https?:\/\//.test(url) ? url : `${base}${url}`);
};
