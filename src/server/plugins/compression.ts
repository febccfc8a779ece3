import { promisify } from "node:util";
import zlib from "node:zlib";
import { Negotiator } from "@fastify/accept-negotiator";
import fastifyCompress from "@fastify/compress";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** Answers smaller than this are sent as they are: compressing them saves less than it costs. */
const THRESHOLD = 1024;
const ENCODINGS = ["br", "gzip"] as const;
type Encoding = (typeof ENCODINGS)[number];
/**
 * Brotli at quality 3 (decision 024): within 3 % of quality 4's bytes for answers of a few to tens of KB, at half its
 * CPU, which every write pays again for each cached answer showing what it changed (its default, 11, is meant for
 * compressing once, as the build does for assets). A 256 KiB window instead of 4 MiB: answers are smaller than that,
 * and each compressor's memory (outside the JavaScript heap, freed only when it is collected) shrinks with it.
 */
const BROTLI = {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 },
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

const compress = {
  br: promisify((body: Buffer, callback: (error: Error | null, result: Buffer) => void) =>
    zlib.brotliCompress(body, BROTLI, callback),
  ),
  gzip: promisify((body: Buffer, callback: (error: Error | null, result: Buffer) => void) => zlib.gzip(body, callback)),
};
/** Compressions under way, so that readers asking for one answer at once share one. */
const compressing = new WeakMap<Compressible, Partial<Record<Encoding, Promise<Buffer>>>>();

/** `answer`'s copy in `encoding`, made once, on libuv's threads rather than the event loop, and kept on it. */
function compressedCopy(answer: Compressible, encoding: Encoding): Buffer | Promise<Buffer> {
  const kept = answer.compressed[encoding];
  if (kept) return kept;
  const pending = compressing.get(answer) ?? {};
  compressing.set(answer, pending);
  pending[encoding] ??= compress[encoding](answer.body)
    .then((copy) => {
      answer.compressed[encoding] = copy;
      return copy;
    })
    .finally(() => delete pending[encoding]);
  return pending[encoding];
}

/** Adds `field` to the answer's Vary header, keeping the fields already there. */
export function varyOn(reply: FastifyReply, field: string) {
  const fields = new Set(
    String(reply.getHeader("vary") ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  reply.header("vary", [...fields.add(field)].join(", "));
}

/**
 * Sends `answer` compressed in the encoding the client takes best, compressing it only the first time that
 * encoding is asked for. The compression plugin leaves an answer alone once it has a Content-Encoding.
 */
export async function sendCompressed(request: FastifyRequest, reply: FastifyReply, answer: Compressible) {
  varyOn(reply, "accept-encoding");
  const header = request.headers["accept-encoding"];
  const encoding = header && answer.body.length >= THRESHOLD ? negotiator.negotiate(header) : null;
  if (!encoding) return reply.send(answer.body);
  const copy = await compressedCopy(answer, encoding);
  return reply.header("content-encoding", encoding).send(copy);
}
