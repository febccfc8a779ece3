import crypto from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Bus } from "./bus.ts";
import { createTaggedStore, type Kept } from "./tagged-store.ts";

const CHANNEL = "penchain:content-changed";

/** An answer as it is sent, kept with what it was made from. */
export interface CachedResponse {
  body: Buffer;
  type: string;
  etag: string;
  /** Its compressed copies, made when first asked for (plugins/compression.ts). */
  compressed: Partial<Record<"br" | "gzip", Buffer>>;
  /** The value it encodes, for callers that add a signed-in reader's own part to it. */
  value: unknown;
  /** What it shows, and the tick it was read at: what a reader's own copy of it depends on. */
  tags: readonly string[];
  readAt: number;
  /** When it was read (Date.now()): it expires after the cache's maxAgeMs. */
  storedAt: number;
}

/** How a value becomes an answer's bytes: JSON unless told. */
export interface Format {
  type: string;
  encode: (value: unknown) => string;
  /** What of the value is kept beside its bytes, when not all of it (a page's document is its bytes already). */
  kept?: (value: unknown) => unknown;
}
export const JSON_FORMAT: Format = {
  type: "application/json; charset=utf-8",
  encode: (value) => JSON.stringify(value),
};

type Entry = Kept & CachedResponse;

/** What a value read at one tick depends on; a value may depend on groups read at different ticks. */
export interface ReadFrom {
  readAt: number;
  tags: readonly string[];
  /** When the group was read, if before now: the value expires with it. */
  storedAt?: number;
}

/** Counts since start, for tests and the benchmark: what was answered from memory and what was dropped. */
export interface CacheStats {
  hits: number;
  misses: number;
  /** Entries dropped because a write changed something they show. */
  invalidated: number;
  /** Answers made from others (a reader's copy, a rendered page) answered from memory. */
  derivedHits: number;
  /** Rendered pages past their age served while they were rendered again. */
  staleHits: number;
}

/** How long past its age a rendered page may still be served while it waits for its render (decisions 018, 019). */
const STALE_PAGE_MS = 60_000;

/** Past this many remembered tag changes, the next one empties the cache instead (it bounds the memory). */
const MAX_TAG_CLOCKS = 100_000;

/**
 * Encoded answers to anonymous reads (post lists, post pages, comments, categories, feeds), so a read costs a
 * lookup, and small per-reader values beside them. Each entry is stored with the tags of what it shows (`posts`
 * for any list, `post:<id>` for each post in it, `user:<id>` for each author shown); a write invalidates the tags
 * it changed, so a like drops the pages that show that post and nothing else. A read that began before a write to
 * one of its tags is answered but not kept: it may be older than the write. Invalidations reach every instance
 * through the bus (Redis pub/sub); without it (one instance, or several that accept the bound) an entry also expires
 * after `maxAgeMs`, which bounds how late another instance's write shows.
 */
export function createReadCache(options: {
  bus: Bus;
  maxEntries?: number;
  /** What the kept answers may weigh together (their bytes and parsed copies); the oldest go first. */
  maxBytes?: number;
  maxAgeMs?: number;
  log: FastifyBaseLogger;
}) {
  const maxEntries = options.maxEntries ?? 2000;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const maxAgeMs = options.maxAgeMs ?? 5000;
  const stats: CacheStats = { hits: 0, misses: 0, invalidated: 0, derivedHits: 0, staleHits: 0 };

  /** A logical clock: every invalidation ticks it; a read remembers the tick it began at. */
  let clock = 0;
  let everythingChangedAt = 0;
  const tagChangedAt = new Map<string, number>();

  const responses = createTaggedStore<Entry>({ entries: maxEntries, bytes: maxBytes, maxAgeMs });
  /**
   * Answers made from other kept answers (a reader's copy with their reactions, a rendered page), by the same rules.
   * One past its age stays for up to a minute, for a rendered page to be served while it waits to be rendered again
   * (a render costs milliseconds; the answers it is made from are read fresh); a write that changes what it shows
   * drops it as before.
   */
  const derived = createTaggedStore<Entry>({
    entries: maxEntries * 5,
    // As many bytes again as the answers: a rendered page weighs ~150 KB and costs milliseconds to make again.
    bytes: maxBytes,
    maxAgeMs,
    staleMs: Math.max(maxAgeMs, STALE_PAGE_MS),
  });
  /** Small values answers are assembled from (a post's counts), kept by the same rules. */
  const values = createTaggedStore<Kept>({ entries: maxEntries * 20, bytes: maxBytes / 8, maxAgeMs });

  /** Whether a value read from tick `readAt` with these tags may be kept: nothing it shows changed since. */
  const unchangedSince = (readAt: number, tags: readonly string[]) =>
    everythingChangedAt <= readAt && tags.every((tag) => (tagChangedAt.get(tag) ?? 0) <= readAt);

  function respond(value: unknown, readAt: number, tags: readonly string[], format: Format): Entry {
    const body = Buffer.from(format.encode(value));
    const etag = `W/"${crypto.createHash("sha1").update(body).digest("base64url")}"`;
    // The weight counts the parsed value (unless the format keeps little of it) and the compressed copies.
    const weight = (format.kept ? 1.4 : 2) * body.length;
    const kept = format.kept ? format.kept(value) : value;
    return { body, type: format.type, etag, compressed: {}, value: kept, tags, readAt, storedAt: Date.now(), weight };
  }

  function applyInvalidation(tags: readonly string[] | null) {
    clock++;
    if (tags === null || tagChangedAt.size + tags.length > MAX_TAG_CLOCKS) {
      everythingChangedAt = clock;
      tagChangedAt.clear();
      stats.invalidated += responses.clear();
      derived.clear();
      values.clear();
      return;
    }
    for (const tag of tags) {
      tagChangedAt.set(tag, clock);
      stats.invalidated += responses.dropTag(tag);
      derived.dropTag(tag);
      values.dropTag(tag);
    }
  }

  options.bus.subscribe(CHANNEL, (message) => {
    const tags = (message as { tags?: unknown } | null)?.tags;
    applyInvalidation(Array.isArray(tags) ? tags.map(String) : null);
  });

  function get(key: string): CachedResponse | undefined {
    const entry = responses.get(key);
    if (entry) stats.hits++;
    else stats.misses++;
    return entry;
  }

  /**
   * Stores `value`, read from tick `readAt`, under `key` with the tags of what it shows. If one of them changed
   * meanwhile, the value is answered but not kept; nor is one that alone would take an eighth of the budget.
   */
  function set(key: string, value: unknown, readAt: number, tags: readonly string[], format = JSON_FORMAT) {
    const entry = respond(value, readAt, tags, format);
    if (unchangedSince(readAt, tags) && entry.weight <= maxBytes / 8) responses.put(key, entry);
    return entry as CachedResponse;
  }

  /** Reads under way, by key, with the tick each began at. */
  const flights = new Map<string, { readAt: number; answer: Promise<CachedResponse> }>();

  /**
   * The answer under `key`, or `produce()`'s, kept with `tagsOf` its value (a thrown error, such as a 404, is not
   * kept). Readers who miss together share one read: one that began before their own turn is theirs too when
   * nothing it shows changed since it began (a write since then could be theirs, and they must see it).
   */
  async function through<T>(
    key: string,
    produce: () => Promise<T>,
    tagsOf: (value: T) => readonly string[],
    format?: Format,
  ): Promise<CachedResponse> {
    const hit = get(key);
    if (hit) return hit;
    const readAt = clock;
    const flight = flights.get(key);
    if (flight?.readAt === readAt) return flight.answer;
    if (flight) {
      const shared = await flight.answer.catch(() => undefined);
      if (shared && unchangedSince(flight.readAt, shared.tags)) return shared;
      if (flights.get(key) === flight) flights.delete(key);
      return through(key, produce, tagsOf, format);
    }
    const answer = produce().then((value) => set(key, value, readAt, tagsOf(value), format));
    flights.set(key, { readAt, answer });
    try {
      return await answer;
    } finally {
      if (flights.get(key)?.answer === answer) flights.delete(key);
    }
  }

  return {
    /** The tick to pass to `set` for a value read from now on. */
    get clock() {
      return clock;
    },

    get,
    set,

    through,

    /**
     * An answer made from others (a reader's own copy of one, with their reactions added; a page rendered from
     * several), kept beside them while nothing it was made from changed: each group of tags since the tick that
     * group was read at. It expires with the oldest of them.
     */
    getDerived(key: string): CachedResponse | undefined {
      const entry = derived.get(key);
      if (entry) stats.derivedHits++;
      return entry;
    },

    /** A derived answer past its age that nothing it shows changed since (see `derived`). */
    staleDerived(key: string): CachedResponse | undefined {
      const entry = derived.stale(key);
      if (entry) stats.staleHits++;
      return entry;
    },

    setDerived(key: string, value: unknown, from: ReadFrom[], format = JSON_FORMAT): CachedResponse {
      const tags = from.flatMap((group) => group.tags);
      const entry = respond(value, Math.min(...from.map((group) => group.readAt)), tags, format);
      entry.storedAt = Math.min(entry.storedAt, ...from.map((group) => group.storedAt ?? entry.storedAt));
      if (from.every((group) => unchangedSince(group.readAt, group.tags))) derived.put(key, entry);
      return entry;
    },

    getValue(key: string): unknown {
      return values.get(key)?.value;
    },

    /** Keeps a small value read at tick `readAt` that shows `tags`, unless one of them changed since. */
    setValue(key: string, value: unknown, readAt: number, tags: readonly string[]) {
      if (unchangedSince(readAt, tags)) values.put(key, { value, tags, storedAt: Date.now(), weight: 100 });
    },

    /**
     * Something public changed: the entries showing any of `tags` are stale here and on other instances (told
     * through Redis). Without tags, every entry is.
     */
    invalidate(tags?: readonly string[]) {
      if (tags?.length === 0) return;
      options.bus.publish(CHANNEL, { tags: tags ?? null });
    },

    stats(): CacheStats & { entries: number; derived: number } {
      return { ...stats, entries: responses.size, derived: derived.size };
    },
  };
}
export type ReadCache = ReturnType<typeof createReadCache>;
