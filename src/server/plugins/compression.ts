import zlib from "node:zlib";
import fastifyCompress from "@fastify/compress";
import type { FastifyInstance } from "fastify";

/**
 * Brotli or gzip for every answer over 1 KB whose type compresses (HTML, JSON, XML, JS, CSS, SVG), chosen by the
 * client's Accept-Encoding. Brotli at quality 4: close to its best ratio for text this size, at gzip's speed (its
 * default, 11, is meant for compressing once, as the build does for assets).
 */
export async function registerCompression(app: FastifyInstance) {
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ["br", "gzip"],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    customTypes: /^(text\/|application\/(json|xml|rss\+xml|atom\+xml|javascript)|image\/svg\+xml)/,
  });
}
