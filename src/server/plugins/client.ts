import fs from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { IMAGE_WIDTHS } from "../../shared/images.ts";
import { resizeTo } from "../services/images.ts";

const ALL_WIDTHS = new Set<number>([...IMAGE_WIDTHS.cover, ...IMAGE_WIDTHS.photo]);

/**
 * A smaller width of an upload made before images were stored at several widths: made from the upload on first
 * request and kept beside it, so the next request is a plain file.
 */
async function uploadVariant(uploadsDir: string, pathname: string) {
  const match = /^\/uploads\/([\w-]+)-w(\d+)\.webp$/.exec(pathname);
  if (!match || !ALL_WIDTHS.has(Number(match[2]))) return null;
  const source = await fs.promises.readFile(path.join(uploadsDir, `${match[1]}.webp`)).catch(() => null);
  if (!source) return null;
  const data = await resizeTo(source, Number(match[2]));
  await fs.promises.writeFile(path.join(uploadsDir, path.basename(pathname)), data);
  return data;
}

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

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split("?")[0] as string;
    const variant = await uploadVariant(options.uploadsDir, pathname);
    if (variant) {
      return reply.type("image/webp").header("cache-control", "public, max-age=604800, immutable").send(variant);
    }
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
