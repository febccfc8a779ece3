import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  preSerializationHookHandler,
} from "fastify";
import { type CachedResponse, createReadCache, type ReadCache } from "../infra/read-cache.ts";
import { sendCompressed, varyOn } from "./compression.ts";

declare module "fastify" {
  interface FastifyInstance {
    readCache: ReadCache;
  }
  interface FastifyContextConfig {
    /**
     * What a successful write changes in cached public reads: `"nothing"` (sessions, mail, follows), or the tags
     * of what it changed, from the request and the answer (see infra/read-cache.ts). A write route that says
     * nothing changes everything, so a new route is safe without doing anything.
     */
    changes?: "nothing" | ((request: FastifyRequest, answer: unknown) => string[]);
  }
}

/** The tags of cached reads (infra/read-cache.ts): each is written here once. */
export const cacheTags = {
  /** Every list of posts (a new or removed post changes them all), feeds and the sitemap. */
  posts: "posts",
  /** A post as its author wrote it: title, text, category, image, state. */
  post: (id: string) => `post:${id}`,
  /** A post's likes, dislikes and comments counts, which readers change all the time: kept apart from pages. */
  counts: (id: string) => `counts:${id}`,
  /** A post's comments. */
  comments: (id: string) => `comments:${id}`,
  /** What shows this user's name or photo: their posts and comments. */
  user: (id: string) => `user:${id}`,
  /** A signed-in reader's own reaction to one post: their like elsewhere leaves their other copies as they are. */
  reaction: (readerId: string, postId: string) => `reaction:${readerId}:${postId}`,
  categories: "categories",
  settings: "settings",
} as const;

/**
 * The read cache, and the rule that keeps it right: each successful write drops what it changed, before its answer
 * leaves, so the writer's next read sees the change; the route says what that is in its `config.changes`.
 */
export function registerReadCache(app: FastifyInstance, options: { maxAgeMs: number }) {
  const cache = createReadCache({ ...options, bus: app.bus, log: app.log });
  app.decorate("readCache", cache);
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
 * A signed-in reader's copy of the cached answer `shared`: `produce()` adds their own part (their reactions, which
 * the tags `own` stand for). Kept until either changes, so a reader's next read is a lookup too.
 */
export async function ownThrough(
  app: FastifyInstance,
  key: string,
  shared: CachedResponse,
  own: string[],
  produce: () => Promise<unknown>,
): Promise<CachedResponse> {
  const hit = app.readCache.getDerived(key);
  if (hit) return hit;
  const readAt = app.readCache.clock;
  const value = await produce();
  return app.readCache.setDerived(key, value, [shared, { readAt, tags: own }]);
}

/**
 * Sends a cached answer as it was encoded and compressed once, or 304 when the client has it already. Its
 * readers may get it from another instance a moment later, so it is revalidated on every use.
 */
export function sendCached(request: FastifyRequest, reply: FastifyReply, entry: CachedResponse) {
  reply.header("etag", entry.etag).header("cache-control", "no-cache");
  if (request.headers["if-none-match"] === entry.etag) {
    varyOn(reply, "accept-encoding");
    return reply.code(304).send();
  }
  return sendCompressed(request, reply.type(entry.type), entry);
}
