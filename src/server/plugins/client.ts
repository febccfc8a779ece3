import fs from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/**
 * Serves uploads and the built client; any other page address gets index.html so client routes survive a reload.
 * Unknown /api paths and missing files stay 404s.
 */
export async function registerClient(app: FastifyInstance, options: { clientDir: string; uploadsDir: string }) {
  fs.mkdirSync(options.uploadsDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: options.uploadsDir,
    prefix: "/uploads/",
    decorateReply: false,
    maxAge: "7d",
    immutable: true,
  });

  const hasClient = fs.existsSync(path.join(options.clientDir, "index.html"));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: options.clientDir,
      wildcard: false,
      index: false,
      // The build wrote .br and .gz copies (scripts/compress-assets.ts); they are sent to clients that take them.
      preCompressed: true,
      // Hashed asset names never change content; index.html must always be fresh.
      setHeaders: (res, filePath) =>
        res.header(
          "cache-control",
          filePath.includes(`${path.sep}assets${path.sep}`) ? "public, max-age=31536000, immutable" : "no-cache",
        ),
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split("?")[0] as string;
    // Page addresses answer HTML whatever the Accept header says (link-preview crawlers send */*); files do not.
    const isPage =
      (request.method === "GET" || request.method === "HEAD") &&
      !pathname.startsWith("/api/") &&
      !pathname.startsWith("/uploads/") &&
      !pathname.startsWith("/assets/") &&
      !/\.[a-z0-9]+$/i.test(pathname);
    // Screens the client renders (forms, profiles, admin) are not for search engines; reader pages are rendered above.
    if (isPage && hasClient) {
      return reply.header("cache-control", "no-cache").header("x-robots-tag", "noindex").sendFile("index.html");
    }
    if (isPage) return reply.code(404).send({ message: "The web client is not built yet: run `npm run build`." });
    return reply.code(404).send({ message: `Route ${request.method} ${pathname} not found` });
  });
}
