import crypto from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { Redis } from "ioredis";

const CHANNEL = "penchain:content-changed";

export interface CachedResponse {
  body: Buffer;
  etag: string;
  /** The parsed body, for callers that add a signed-in reader's own part to it. */
  value: unknown;
}

interface Entry extends CachedResponse {
  generation: number;
  storedAt: number;
}

/**
 * Encoded answers to anonymous reads (post lists, post pages, comments, categories), so a read costs a lookup.
 * Any content write bumps the generation, which makes every entry stale at once: writes are rare next to reads, and
 * one rule cannot miss a case. With Redis the bump reaches every instance through pub/sub; without it (one instance,
 * or several that accept the bound) an entry also expires after `maxAgeMs`, which bounds how late another
 * instance's write shows.
 */
export function createReadCache(options: {
  redisUrl?: string | undefined;
  maxEntries?: number;
  maxAgeMs?: number;
  log: FastifyBaseLogger;
}) {
  const maxEntries = options.maxEntries ?? 2000;
  const maxAgeMs = options.maxAgeMs ?? 5000;
  const entries = new Map<string, Entry>();
  /** Small values for one reader (their reactions on a page), kept by the same rule. */
  const personal = new Map<string, Omit<Entry, "body" | "etag">>();
  const fresh = (entry: { generation: number; storedAt: number }) =>
    entry.generation === generation && Date.now() - entry.storedAt <= maxAgeMs;
  const keep = <T>(map: Map<string, T>, max: number, key: string, entry: T) => {
    map.delete(key);
    if (map.size >= max) map.delete(map.keys().next().value as string);
    map.set(key, entry);
  };
  const instanceId = crypto.randomUUID();
  let generation = 0;

  const publisher = options.redisUrl
    ? new Redis(options.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : undefined;
  const subscriber = options.redisUrl ? new Redis(options.redisUrl, { maxRetriesPerRequest: 1 }) : undefined;
  for (const client of [publisher, subscriber]) {
    client?.on("error", (error) => options.log.warn({ err: error }, "read cache: Redis unavailable"));
  }
  subscriber?.subscribe(CHANNEL).catch((error) => options.log.warn({ err: error }, "read cache: no subscription"));
  subscriber?.on("message", (_channel, from) => {
    if (from !== instanceId) generation++;
  });

  return {
    /** The generation to pass to `set` for a value read from now on. */
    get generation() {
      return generation;
    },

    get(key: string): CachedResponse | undefined {
      const entry = entries.get(key);
      if (entry && fresh(entry)) return entry;
      entries.delete(key);
      return undefined;
    },

    getPersonal(key: string): unknown {
      const entry = personal.get(key);
      if (entry && fresh(entry)) return entry.value;
      personal.delete(key);
      return undefined;
    },

    setPersonal(key: string, value: unknown, readGeneration: number) {
      if (readGeneration === generation) {
        keep(personal, maxEntries * 10, key, { value, generation: readGeneration, storedAt: Date.now() });
      }
    },

    /**
     * Stores `value` read while `readGeneration` was current: if a write came in meanwhile, what was read may be
     * older than it, so it is answered but not kept.
     */
    set(key: string, value: unknown, readGeneration: number): CachedResponse {
      const body = Buffer.from(JSON.stringify(value));
      const etag = `W/"${crypto.createHash("sha1").update(body).digest("base64url")}"`;
      const entry = { body, etag, value, generation: readGeneration, storedAt: Date.now() };
      if (readGeneration === generation) keep(entries, maxEntries, key, entry);
      return entry;
    },

    /** Content changed: every entry here is stale, and so are other instances' (told through Redis). */
    invalidate() {
      generation++;
      publisher?.publish(CHANNEL, instanceId).catch(() => {});
    },

    async close() {
      await Promise.all([publisher, subscriber].map((client) => client?.quit().catch(() => client.disconnect())));
    },
  };
}
export type ReadCache = ReturnType<typeof createReadCache>;
