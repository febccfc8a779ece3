import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  preSerializationHookHandler,
} from "fastify";
import { type CachedResponse, createReadCache, type ReadCache } from "../services/read-cache.ts";

declare module "fastify" {
  interface FastifyInstance {
    readCache: ReadCache;
  }
  interface FastifyContextConfig {
    /**
     * What a successful write changes in cached public reads: `"nothing"` (sessions, mail, follows), or the tags
     * of what it changed, from the request and the answer (see services/read-cache.ts). A write route that says
     * nothing changes everything, so a new route is safe without doing anything.
     */
    changes?: "nothing" | ((request: FastifyRequest, answer: unknown) => string[]);
  }
}

/** The tags of cached reads (services/read-cache.ts): each is written here once. */
export const cacheTags = {
  /** Every list of posts (a new or removed post changes them all), feeds and the sitemap. */
  posts: "posts",
  post: (id: string) => `post:${id}`,
  /** What shows this user's name or photo: their posts and comments. */
  user: (id: string) => `user:${id}`,
  /** A signed-in reader's own reactions. */
  reader: (id: string) => `reader:${id}`,
  categories: "categories",
  settings: "settings",
} as const;

/**
 * The read cache, and the rule that keeps it right: each successful write drops what it changed, before its answer
 * leaves, so the writer's next read sees the change; the route says what that is in its `config.changes`.
 */
export function registerReadCache(app: FastifyInstance, options: { redisUrl?: string | undefined; maxAgeMs: number }) {
  const cache = createReadCache({ ...options, log: app.log });
  app.decorate("readCache", cache);
  app.addHook("onClose", () => cache.close());
  // Attached to write routes only, so reads pay nothing for it.
  app.addHook("onRoute", (route) => {
    const methods = [route.method].flat();
    if (methods.every((method) => method === "GET" || method === "HEAD" || method === "OPTIONS")) return;
    const changes = route.config?.changes;
    if (changes === "nothing") return;
    if (!changes) {
      const everything: onSendHookHandler = (_request, reply, payload, done) => {
        if (reply.statusCode < 400) cache.invalidate();
        done(null, payload);
      };
      route.onSend = [...[route.onSend ?? []].flat(), everything];
      return;
    }
    // Before serialising, while the answer is still an object the route's tags can be read from.
    const precise: preSerializationHookHandler<unknown> = (request, reply, answer, done) => {
      if (reply.statusCode < 400) cache.invalidate(changes(request, answer));
      done(null, answer);
    };
    route.preSerialization = [...[route.preSerialization ?? []].flat(), precise];
  });
}

/**
 * The cached answer for `key`, or `produce()`'s, which is then kept with the tags of what it shows (a thrown
 * error, such as a 404, is not kept).
 */
export async function readThrough<T>(
  app: FastifyInstance,
  key: string,
  produce: () => Promise<T>,
  tagsOf: (value: T) => string[],
): Promise<CachedResponse> {
  const hit = app.readCache.get(key);
  if (hit) return hit;
  const readAt = app.readCache.clock;
  const value = await produce();
  return app.readCache.set(key, value, readAt, tagsOf(value));
}

/** Like readThrough, for a small value of one reader's (never sent as it is). */
export async function personalThrough<T>(
  app: FastifyInstance,
  key: string,
  tags: string[],
  produce: () => Promise<T>,
): Promise<T> {
  const hit = app.readCache.getPersonal(key);
  if (hit !== undefined) return hit as T;
  const readAt = app.readCache.clock;
  const value = await produce();
  app.readCache.setPersonal(key, value, readAt, tags);
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
