import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type CachedResponse, createReadCache, type ReadCache } from "../services/read-cache.ts";

declare module "fastify" {
  interface FastifyInstance {
    readCache: ReadCache;
  }
}

/** Writes that change nothing a cached read shows: sessions, mail, passwords, wallets, registration. */
const NO_PUBLIC_CHANGE =
  /^\/api\/(auth\/|email|users\/(login|logout|register|password|forget-password-token|reset-password|generate-verify-email-token|verify-account|wallet)\b)/;

/**
 * The read cache, and the rule that keeps it right: every successful write not listed above invalidates it, before
 * its answer leaves, so the writer's next read sees the change. A new write route is covered without doing anything.
 */
export function registerReadCache(app: FastifyInstance, redisUrl: string | undefined) {
  const cache = createReadCache({ redisUrl, log: app.log });
  app.decorate("readCache", cache);
  app.addHook("onClose", () => cache.close());
  app.addHook("onSend", async (request, reply, payload) => {
    const isWrite = request.method !== "GET" && request.method !== "HEAD" && request.method !== "OPTIONS";
    if (isWrite && reply.statusCode < 400 && !NO_PUBLIC_CHANGE.test(request.url)) cache.invalidate();
    return payload;
  });
}

/** The cached answer for `key`, or `produce()`'s, which is then kept (a thrown error, such as a 404, is not). */
export async function readThrough(app: FastifyInstance, key: string, produce: () => Promise<unknown>) {
  const hit = app.readCache.get(key);
  if (hit) return hit;
  const generation = app.readCache.generation;
  return app.readCache.set(key, await produce(), generation);
}

/** Sends the encoded answer as it is (no serialising again), or 304 when the client has it already. */
export function sendCached(request: FastifyRequest, reply: FastifyReply, entry: CachedResponse) {
  reply.header("etag", entry.etag).header("cache-control", "no-cache");
  if (request.headers["if-none-match"] === entry.etag) return reply.code(304).send();
  return reply.type("application/json; charset=utf-8").send(entry.body);
}
