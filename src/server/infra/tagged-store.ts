/** A kept value with the tags of what it shows, when it was stored, and what it weighs. */
export interface Kept {
  value: unknown;
  tags: readonly string[];
  storedAt: number;
  weight: number;
}

/**
 * Values by key, each findable by its tags, expiring after `maxAgeMs`; an expired one stays `staleMs` longer for
 * `stale` (served while it is read again); past `entries` or `bytes` the oldest go first. The read cache keeps its
 * answers, derived answers and small values in three of these.
 */
export function createTaggedStore<T extends Kept>(limits: {
  entries: number;
  bytes: number;
  maxAgeMs: number;
  staleMs?: number;
}) {
  const keptFor = limits.maxAgeMs + (limits.staleMs ?? 0);
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
      if (!entry) return undefined;
      const age = Date.now() - entry.storedAt;
      if (age <= limits.maxAgeMs) return entry;
      if (age > keptFor) drop(key);
      return undefined;
    },
    /** An entry past its age, still within `staleMs`: nothing it shows was changed since (a change drops it). */
    stale(key: string): T | undefined {
      const entry = entries.get(key);
      return entry && Date.now() - entry.storedAt <= keptFor ? entry : undefined;
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
