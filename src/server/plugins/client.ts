import fs from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/**
 * Serves uploads and the built client; any other GET that wants HTML gets index.html so client routes survive a
 * reload. Unknown /api paths stay JSON 404s.
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
      // Hashed asset names never change content; index.html must always be fresh.
      setHeaders: (res, filePath) =>
        res.header(
          "cache-control",
          filePath.includes(`${path.sep}assets${path.sep}`) ? "public, max-age=31536000, immutable" : "no-cache",
        ),
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const wantsPage =
      (request.method === "GET" || request.method === "HEAD") &&
      !request.url.startsWith("/api/") &&
      !request.url.startsWith("/uploads/") &&
      request.headers.accept?.includes("text/html");
    if (wantsPage && hasClient) return reply.header("cache-control", "no-cache").sendFile("index.html");
    if (wantsPage) return reply.code(404).send({ message: "The web client is not built yet: run `npm run build`." });
    return reply.code(404).send({ message: `Route ${request.method} ${request.url.split("?")[0]} not found` });
  });
}
