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
  /** What the kept answers may weigh together (their bytes and parsed copies); the oldest go first. */
  maxBytes?: number;
  maxAgeMs?: number;
  log: FastifyBaseLogger;
}) {
  const maxEntries = options.maxEntries ?? 2000;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const maxAgeMs = options.maxAgeMs ?? 5000;
  const entries = new Map<string, Entry>();
  let bytes = 0;
  /** Small values for one reader (their reactions on a page), kept by the same rule. */
  const personal = new Map<string, Omit<Entry, "body" | "etag">>();
  const fresh = (entry: { generation: number; storedAt: number }) =>
    entry.generation === generation && Date.now() - entry.storedAt <= maxAgeMs;
  const weight = (entry: Entry) => 2 * entry.body.length;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (entry) bytes -= weight(entry);
    entries.delete(key);
  };
  const instanceId = crypto.randomUUID();
  let generation = 0;
  /** Everything kept is stale now: let it go at once rather than when it is next asked for. */
  const bump = () => {
    generation++;
    entries.clear();
    personal.clear();
    bytes = 0;
  };

  const publisher = options.redisUrl
    ? new Redis(options.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : undefined;
  const subscriber = options.redisUrl ? new Redis(options.redisUrl, { maxRetriesPerRequest: 1 }) : undefined;
  for (const client of [publisher, subscriber]) {
    client?.on("error", (error) => options.log.warn({ err: error }, "read cache: Redis unavailable"));
  }
  subscriber?.subscribe(CHANNEL).catch((error) => options.log.warn({ err: error }, "read cache: no subscription"));
  subscriber?.on("message", (_channel, from) => {
    if (from !== instanceId) bump();
  });

  return {
    /** The generation to pass to `set` for a value read from now on. */
    get generation() {
      return generation;
    },

    get(key: string): CachedResponse | undefined {
      const entry = entries.get(key);
      if (entry && fresh(entry)) return entry;
      drop(key);
      return undefined;
    },

    getPersonal(key: string): unknown {
      const entry = personal.get(key);
      if (entry && fresh(entry)) return entry.value;
      personal.delete(key);
      return undefined;
    },

    setPersonal(key: string, value: unknown, readGeneration: number) {
      if (readGeneration !== generation) return;
      personal.delete(key);
      if (personal.size >= maxEntries * 10) personal.delete(personal.keys().next().value as string);
      personal.set(key, { value, generation: readGeneration, storedAt: Date.now() });
    },

    /**
     * Stores `value` read while `readGeneration` was current: if a write came in meanwhile, what was read may be
     * older than it, so it is answered but not kept.
     */
    set(key: string, value: unknown, readGeneration: number): CachedResponse {
      const body = Buffer.from(JSON.stringify(value));
      const etag = `W/"${crypto.createHash("sha1").update(body).digest("base64url")}"`;
      const entry = { body, etag, value, generation: readGeneration, storedAt: Date.now() };
      // An answer read before the latest write is not kept, nor one that alone would take an eighth of the budget.
      if (readGeneration !== generation || weight(entry) > maxBytes / 8) return entry;
      drop(key);
      entries.set(key, entry);
      bytes += weight(entry);
      while (bytes > maxBytes || entries.size > maxEntries) drop(entries.keys().next().value as string);
      return entry;
    },

    /** Content changed: every entry here is stale, and so are other instances' (told through Redis). */
    invalidate() {
      bump();
      publisher?.publish(CHANNEL, instanceId).catch(() => {});
    },

    async close() {
      await Promise.all([publisher, subscriber].map((client) => client?.quit().catch(() => client.disconnect())));
    },
  };
}
export type ReadCache = ReturnType<typeof createReadCache>;
