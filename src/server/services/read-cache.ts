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

interface Kept {
  value: unknown;
  tags: readonly string[];
  storedAt: number;
  weight: number;
}
type Entry = Kept & CachedResponse;

/** Counts since start, for tests and the benchmark: what was answered from memory and what was dropped. */
export interface CacheStats {
  hits: number;
  misses: number;
  /** Entries dropped because a write changed something they show. */
  invalidated: number;
}

/** Past this many remembered tag changes, the next one empties the cache instead (it bounds the memory). */
const MAX_TAG_CLOCKS = 100_000;

/**
 * Encoded answers to anonymous reads (post lists, post pages, comments, categories, feeds), so a read costs a
 * lookup, and small per-reader values beside them. Each entry is stored with the tags of what it shows (`posts`
 * for any list, `post:<id>` for each post in it, `user:<id>` for each author shown); a write invalidates the tags
 * it changed, so a like drops the pages that show that post and nothing else. A read that began before a write to
 * one of its tags is answered but not kept: it may be older than the write. With Redis, invalidations reach every
 * instance through pub/sub; without it (one instance, or several that accept the bound) an entry also expires
 * after `maxAgeMs`, which bounds how late another instance's write shows.
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
  const stats: CacheStats = { hits: 0, misses: 0, invalidated: 0 };

  /** A logical clock: every invalidation ticks it; a read remembers the tick it began at. */
  let clock = 0;
  let everythingChangedAt = 0;
  const tagChangedAt = new Map<string, number>();

  function createStore<T extends Kept>(limits: { entries: number; bytes: number }) {
    const entries = new Map<string, T>();
    const byTag = new Map<string, Set<string>>();
    let bytes = 0;
    const drop = (key: string) => {
      const entry = entries.get(key);
      if (!entry) return;
      entries.delete(key);
      bytes -= entry.weight;
      for (const tag of entry.tags) {
        const keys = byTag.get(tag);
        keys?.delete(key);
        if (keys?.size === 0) byTag.delete(tag);
      }
    };
    return {
      get(key: string): T | undefined {
        const entry = entries.get(key);
        if (entry && Date.now() - entry.storedAt <= maxAgeMs) return entry;
        drop(key);
        return undefined;
      },
      put(key: string, entry: T) {
        drop(key);
        entries.set(key, entry);
        bytes += entry.weight;
        for (const tag of entry.tags) {
          const keys = byTag.get(tag) ?? new Set<string>();
          keys.add(key);
          byTag.set(tag, keys);
        }
        while (bytes > limits.bytes || entries.size > limits.entries) drop(entries.keys().next().value as string);
      },
      dropTag(tag: string) {
        const keys = [...(byTag.get(tag) ?? [])];
        for (const key of keys) drop(key);
        return keys.length;
      },
      clear() {
        const count = entries.size;
        entries.clear();
        byTag.clear();
        bytes = 0;
        return count;
      },
      get size() {
        return entries.size;
      },
    };
  }
  const responses = createStore<Entry>({ entries: maxEntries, bytes: maxBytes });
  /** Small values for one reader (their reactions on a page), kept by the same rules. */
  const personal = createStore<Kept>({ entries: maxEntries * 10, bytes: maxBytes / 4 });

  /** Whether a value read from tick `readAt` with these tags may be kept: nothing it shows changed since. */
  const unchangedSince = (readAt: number, tags: readonly string[]) =>
    everythingChangedAt <= readAt && tags.every((tag) => (tagChangedAt.get(tag) ?? 0) <= readAt);

  function applyInvalidation(tags: readonly string[] | null) {
    clock++;
    if (tags === null || tagChangedAt.size + tags.length > MAX_TAG_CLOCKS) {
      everythingChangedAt = clock;
      tagChangedAt.clear();
      stats.invalidated += responses.clear();
      personal.clear();
      return;
    }
    for (const tag of tags) {
      tagChangedAt.set(tag, clock);
      stats.invalidated += responses.dropTag(tag);
      personal.dropTag(tag);
    }
  }

  const instanceId = crypto.randomUUID();
  const publisher = options.redisUrl
    ? new Redis(options.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : undefined;
  const subscriber = options.redisUrl ? new Redis(options.redisUrl, { maxRetriesPerRequest: 1 }) : undefined;
  for (const client of [publisher, subscriber]) {
    client?.on("error", (error) => options.log.warn({ err: error }, "read cache: Redis unavailable"));
  }
  subscriber?.subscribe(CHANNEL).catch((error) => options.log.warn({ err: error }, "read cache: no subscription"));
  subscriber?.on("message", (_channel, message: string) => {
    try {
      const { from, tags } = JSON.parse(message) as { from: string; tags: string[] | null };
      if (from !== instanceId) applyInvalidation(Array.isArray(tags) ? tags.map(String) : null);
    } catch {
      applyInvalidation(null);
    }
  });

  return {
    /** The tick to pass to `set` for a value read from now on. */
    get clock() {
      return clock;
    },

    get(key: string): CachedResponse | undefined {
      const entry = responses.get(key);
      if (entry) stats.hits++;
      else stats.misses++;
      return entry;
    },

    /**
     * Stores `value`, read from tick `readAt`, under `key` with the tags of what it shows. If one of them changed
     * meanwhile, the value is answered but not kept; nor is one that alone would take an eighth of the budget.
     */
    set(key: string, value: unknown, readAt: number, tags: readonly string[]): CachedResponse {
      const body = Buffer.from(JSON.stringify(value));
      const etag = `W/"${crypto.createHash("sha1").update(body).digest("base64url")}"`;
      const entry: Entry = { body, etag, value, tags, storedAt: Date.now(), weight: 2 * body.length };
      if (unchangedSince(readAt, tags) && entry.weight <= maxBytes / 8) responses.put(key, entry);
      return entry;
    },

    getPersonal(key: string): unknown {
      return personal.get(key)?.value;
    },

    setPersonal(key: string, value: unknown, readAt: number, tags: readonly string[]) {
      if (!unchangedSince(readAt, tags)) return;
      personal.put(key, { value, tags, storedAt: Date.now(), weight: JSON.stringify(value).length });
    },

    /**
     * Something public changed: the entries showing any of `tags` are stale here and on other instances (told
     * through Redis). Without tags, every entry is.
     */
    invalidate(tags?: readonly string[]) {
      if (tags?.length === 0) return;
      applyInvalidation(tags ?? null);
      publisher?.publish(CHANNEL, JSON.stringify({ from: instanceId, tags: tags ?? null })).catch(() => {});
    },

    stats(): CacheStats & { entries: number } {
      return { ...stats, entries: responses.size };
    },

    async close() {
      await Promise.all([publisher, subscriber].map((client) => client?.quit().catch(() => client.disconnect())));
    },
  };
}
export type ReadCache = ReturnType<typeof createReadCache>;
