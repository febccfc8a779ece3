import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from "fastify";
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
  const invalidateOnSuccess: onSendHookHandler = (request, reply, payload, done) => {
    if (reply.statusCode < 400 && !NO_PUBLIC_CHANGE.test(request.url)) cache.invalidate();
    done(null, payload);
  };
  // Attached to write routes only, so reads pay nothing for it.
  app.addHook("onRoute", (route) => {
    const methods = [route.method].flat();
    if (methods.every((method) => method === "GET" || method === "HEAD" || method === "OPTIONS")) return;
    route.onSend = [...[route.onSend ?? []].flat(), invalidateOnSuccess];
  });
}

/** The cached answer for `key`, or `produce()`'s, which is then kept (a thrown error, such as a 404, is not). */
export async function readThrough(app: FastifyInstance, key: string, produce: () => Promise<unknown>) {
  const hit = app.readCache.get(key);
  if (hit) return hit;
  const generation = app.readCache.generation;
  return app.readCache.set(key, await produce(), generation);
}

/** Like readThrough, for a small value of one reader's (never sent as it is). */
export async function personalThrough<T>(app: FastifyInstance, key: string, produce: () => Promise<T>): Promise<T> {
  const hit = app.readCache.getPersonal(key);
  if (hit !== undefined) return hit as T;
  const generation = app.readCache.generation;
  const value = await produce();
  app.readCache.setPersonal(key, value, generation);
  return value;
}

/** Sends the encoded answer as it is (no serialising again), or 304 when the client has it already. */
export function sendCached(request: FastifyRequest, reply: FastifyReply, entry: CachedResponse) {
  reply.header("etag", entry.etag).header("cache-control", "no-cache");
  if (request.headers["if-none-match"] === entry.etag) return reply.code(304).send();
  return reply.type("application/json; charset=utf-8").send(entry.body);
}

/**
 * Sends a body built from cached answers (already in the response's shape) as JSON, without running it through the
 * response schema again.
 */
export function sendJson(reply: FastifyReply, body: unknown) {
  return reply.type("application/json; charset=utf-8").send(JSON.stringify(body));
}
