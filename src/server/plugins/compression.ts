import zlib from "node:zlib";
import { Negotiator } from "@fastify/accept-negotiator";
import fastifyCompress from "@fastify/compress";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** Answers smaller than this are sent as they are: compressing them saves less than it costs. */
const THRESHOLD = 1024;
const ENCODINGS = ["br", "gzip"] as const;
type Encoding = (typeof ENCODINGS)[number];
/**
 * Brotli at quality 4: close to its best ratio for text this size, at gzip's speed (its default, 11, is meant for
 * compressing once, as the build does for assets). A 256 KiB window instead of 4 MiB: answers are smaller than that,
 * and each compressor's memory (outside the JavaScript heap, freed only when it is collected) shrinks with it.
 */
const BROTLI = {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 },
};

/**
 * Brotli or gzip for every answer over 1 KB whose type compresses (HTML, JSON, XML, JS, CSS, SVG), chosen by the
 * client's Accept-Encoding. Cached answers are compressed once per encoding instead (`sendCompressed`).
 */
export async function registerCompression(app: FastifyInstance) {
  await app.register(fastifyCompress, {
    global: true,
    threshold: THRESHOLD,
    encodings: [...ENCODINGS],
    brotliOptions: BROTLI,
    customTypes: /^(text\/|application\/(json|xml|rss\+xml|atom\+xml|javascript)|image\/svg\+xml)/,
  });
}

// No cache of parsed headers: any client could fill it with headers of its own.
const negotiator = new Negotiator<Encoding>({ supportedValues: [...ENCODINGS] });

/** The bytes of an answer that is sent many times, and its compressed copies, made on first need and kept. */
export interface Compressible {
  body: Buffer;
  compressed: Partial<Record<Encoding, Buffer>>;
}

/**
 * Sends `answer` compressed in the encoding the client takes best, compressing it only the first time that
 * encoding is asked for. The compression plugin leaves an answer alone once it has a Content-Encoding.
 */
export function sendCompressed(request: FastifyRequest, reply: FastifyReply, answer: Compressible) {
  reply.header("vary", "accept-encoding");
  const header = request.headers["accept-encoding"];
  const encoding = header && answer.body.length >= THRESHOLD ? negotiator.negotiate(header) : null;
  if (!encoding) return reply.send(answer.body);
  answer.compressed[encoding] ??=
    encoding === "br" ? zlib.brotliCompressSync(answer.body, BROTLI) : zlib.gzipSync(answer.body);
  return reply.header("content-encoding", encoding).send(answer.compressed[encoding]);
}
