import type { FastifyInstance } from "fastify";
import { validationError } from "../http-error.ts";

const MESSAGE = "Text must not contain NUL characters or broken Unicode";
/** No request of ours nests deeper than a few levels; a deeper one is refused before anything walks it further. */
export const MAX_DEPTH = 32;
export const TOO_DEEP = `The request is nested too deeply (more than ${MAX_DEPTH} levels)`;

const isBadText = (text: string) => text.includes("\u0000") || !text.isWellFormed();

/**
 * The path of the first string (key or value) PostgreSQL could not store: a NUL byte or an unpaired surrogate.
 * Walked with a stack of its own, not by recursion, so no input can exhaust the call stack.
 */
export function findBadText(value: unknown): { path: string[]; message: string } | null {
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: item, path } = stack.pop() as { value: unknown; path: string[] };
    if (typeof item === "string") {
      if (isBadText(item)) return { path, message: MESSAGE };
      continue;
    }
    if (typeof item !== "object" || item === null) continue;
    if (path.length >= MAX_DEPTH) return { path: [], message: TOO_DEEP };
    for (const [key, child] of Object.entries(item)) {
      if (isBadText(key)) return { path: [...path, key], message: MESSAGE };
      stack.push({ value: child, path: [...path, key] });
    }
  }
  return null;
}

/** Throws the API's 400 when any string in `value` is text no column can hold, or it nests too deeply. */
export function assertCleanText(value: unknown) {
  const found = findBadText(value);
  if (found) throw validationError([found]);
}

/**
 * Whether JSON text nests arrays and objects deeper than `max`, read byte by byte before it is parsed: a parser or
 * a JSON-LD processor walking a 100,000-deep document is what an attacker wants it to do.
 */
export function nestsDeeperThan(json: Uint8Array, max = MAX_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const byte = json[i];
    if (inString) {
      if (byte === 0x5c) i++;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > max) return true;
    } else if (byte === 0x5d || byte === 0x7d) depth--;
  }
  return false;
}

/**
 * The API's JSON: too deep a document is refused before it is parsed, and a JSON content type with no body (which
 * many clients send on calls that take none) is no body rather than an error.
 */
function registerJsonParser(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    const bytes = body as Buffer;
    if (bytes.length === 0) return done(null, undefined);
    if (nestsDeeperThan(bytes)) return done(validationError([{ path: [], message: TOO_DEEP }]));
    return parse(request, bytes.toString("utf8"), done);
  });
}

/**
 * Before any schema runs, every string of the query, the route parameters and a JSON body is checked once, so no
 * route can pass such text on to the database (multipart fields are checked where they are read).
 */
export function registerInputGuard(app: FastifyInstance) {
  registerJsonParser(app);
  app.addHook("preValidation", async (request) => {
    assertCleanText(request.query);
    assertCleanText(request.params);
    if (!request.isMultipart()) assertCleanText(request.body);
  });
}
