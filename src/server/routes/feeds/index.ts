import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import { sendCached } from "../../plugins/read-cache.ts";

const feedQuerySchema = z.object({
  category: z.string().trim().max(60).optional(),
  author: z.uuid().optional(),
});

/** Discovery: the RSS feeds, the sitemap and robots.txt naming it (services/public-reads/feeds.ts). */
export const feedRoutes: FastifyPluginAsync = async (app) => {
  const base = app.config.publicUrl.replace(/\/$/, "");
  const hide = { schema: { hide: true } };

  app.get("/rss.xml", hide, async (request, reply) => {
    const parsed = feedQuerySchema.safeParse(request.query);
    if (!parsed.success)
      return reply.code(400).send({ message: "Unknown feed: ?category= takes a title, ?author= an id" });
    const query = parsed.data;
    const category = query.category ? await app.reads.categoryTitle(query.category) : undefined;
    if (category === null) return reply.code(404).send({ message: "No such category" });
    return sendCached(request, reply, await app.feeds.rss({ category, author: query.author }));
  });

  app.get("/sitemap.xml", hide, async (request, reply) => sendCached(request, reply, await app.feeds.sitemap()));

  app.get("/sitemap-:file.xml", hide, async (request, reply) => {
    const { file: name } = request.params as { file: string };
    if (!/^[1-9]\d{0,3}$/.test(name)) return reply.code(404).send({ message: "No such sitemap" });
    const entry = await app.feeds.sitemapFile(Number(name));
    if (entry.value === null) return reply.code(404).send({ message: "No such sitemap" });
    return sendCached(request, reply, entry);
  });

  app.get("/robots.txt", hide, async (_request, reply) =>
    reply
      .type("text/plain; charset=utf-8")
      .send(`User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${base}/sitemap.xml\n`),
  );
};
