import fs from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { IMAGE_WIDTHS } from "#shared/images.ts";
import { isScreenPath } from "#shared/screens.ts";
import { resizeTo } from "../services/core/images.ts";

/** The smaller widths stored beside an upload; the largest of each kind is the upload itself. */
const SMALLER_WIDTHS = [...IMAGE_WIDTHS.cover.slice(0, -1), ...IMAGE_WIDTHS.photo.slice(0, -1)];
/** Exactly the names storeImage writes (a random UUID, a width as written): no other spelling reaches sharp. */
const VARIANT_NAME = new RegExp(
  `^/uploads/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-w(${SMALLER_WIDTHS.join("|")})\\.webp$`,
);

/**
 * A smaller width of an upload made before images were stored at several widths: made from the upload on first
 * request and kept beside it, so the next request is a plain file. Requests that arrive while it is being made
 * share that one piece of work.
 */
function variantMaker(uploadsDir: string) {
  const making = new Map<string, Promise<Buffer | null>>();
  async function make(name: string, width: number) {
    const source = await fs.promises.readFile(path.join(uploadsDir, `${name}.webp`)).catch(() => null);
    if (!source) return null;
    const data = await resizeTo(source, width);
    const file = path.join(uploadsDir, `${name}-w${width}.webp`);
    await fs.promises.writeFile(file, data, { flag: "wx" }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
    return data;
  }
  return (pathname: string) => {
    const match = VARIANT_NAME.exec(pathname);
    if (!match) return null;
    const [, name, width] = match as unknown as [string, string, string];
    const key = `${name}-${width}`;
    const running = making.get(key) ?? make(name, Number(width)).finally(() => making.delete(key));
    making.set(key, running);
    return running;
  };
}

/**
 * Serves uploads and the built client; any other page address gets index.html so client routes survive a reload.
 * Unknown /api paths and missing files stay 404s.
 */
export async function registerClient(
  app: FastifyInstance,
  options: {
    clientDir: string;
    uploadsDir: string;
    /** Where an old address (an imported post's) now lives, if it is one. */
    redirectFor?: (pathname: string) => Promise<string | null>;
  },
) {
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
      // A writer's screen fetches some twenty scripts, each with these headers: an ETag revalidates what is not hashed
      // (below), and nothing here is worth fetching by ranges.
      acceptRanges: false,
      lastModified: false,
      // Hashed asset names never change content, so browsers never revalidate them and they need no ETag; index.html
      // must always be fresh.
      setHeaders: (res, filePath) => {
        if (!filePath.includes(`${path.sep}assets${path.sep}`)) return res.header("cache-control", "no-cache");
        res.removeHeader("etag");
        return res.header("cache-control", "max-age=31536000, immutable");
      },
    });
  }

  const uploadVariant = variantMaker(options.uploadsDir);
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split("?")[0] as string;
    const variant = await uploadVariant(pathname);
    if (variant) {
      return reply.type("image/webp").header("cache-control", "public, max-age=604800, immutable").send(variant);
    }
    if ((request.method === "GET" || request.method === "HEAD") && options.redirectFor) {
      const moved = await options.redirectFor(pathname);
      // Not kept by caches: the address answers only while its post is public.
      if (moved) return reply.code(301).header("cache-control", "no-cache").redirect(moved, 301);
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
      // A profile's address answers its author's actor to the fediverse: caches must not mix the two.
      if (pathname.startsWith("/profile/")) reply.header("vary", "accept");
      // An address with no screen is not found: the app says so, and the status says so to crawlers and tools.
      if (!isScreenPath(pathname)) reply.code(404);
      return reply.header("cache-control", "no-cache").header("x-robots-tag", "noindex").sendFile("index.html");
    }
    if (isPage) return reply.code(404).send({ message: "The web client is not built yet: run `npm run build`." });
    return reply.code(404).send({ message: `Route ${request.method} ${pathname} not found` });
  });
}
