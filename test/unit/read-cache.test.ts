import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import { createReadCache } from "../../src/server/services/read-cache.ts";

const log = pino({ level: "silent" });
const page = (size: number) => ({ items: "x".repeat(size) });

describe("the read cache", () => {
  it("answers what it kept, with a weak ETag of the bytes", () => {
    const cache = createReadCache({ log });
    const stored = cache.set("a", page(10), cache.generation);
    expect(cache.get("a")?.body.toString()).toBe(JSON.stringify(page(10)));
    expect(stored.etag).toMatch(/^W\/"[\w-]+"$/);
    expect(cache.set("b", page(11), cache.generation).etag).not.toBe(stored.etag);
  });

  it("forgets everything when content changes, and does not keep what was read before the change", () => {
    const cache = createReadCache({ log });
    cache.set("a", page(1), cache.generation);
    const readBefore = cache.generation;
    cache.invalidate();
    expect(cache.get("a")).toBeUndefined();
    expect(cache.set("b", page(1), readBefore).body.length).toBeGreaterThan(0);
    expect(cache.get("b")).toBeUndefined();
    cache.setPersonal("p", { x: 1 }, readBefore);
    expect(cache.getPersonal("p")).toBeUndefined();
  });

  it("lets entries live maxAgeMs at most", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const cache = createReadCache({ log, maxAgeMs: 5000 });
    cache.set("a", page(1), cache.generation);
    vi.advanceTimersByTime(4000);
    expect(cache.get("a")).toBeDefined();
    vi.advanceTimersByTime(1500);
    expect(cache.get("a")).toBeUndefined();
    vi.useRealTimers();
  });

  it("stays within its byte budget, oldest out first, and keeps no single huge answer", () => {
    const cache = createReadCache({ log, maxBytes: 5000 });
    const keys = ["a", "b", "c", "d", "e", "f", "g", "h"];
    // Each weighs 2 × 302 bytes (its JSON and its parsed copy): eight fit in 5,000.
    for (const key of keys) cache.set(key, page(290), cache.generation);
    expect(keys.every((key) => cache.get(key))).toBe(true);
    cache.set("i", page(290), cache.generation);
    expect(cache.get("a")).toBeUndefined();
    expect(keys.slice(1).every((key) => cache.get(key))).toBe(true);
    // Over an eighth of the budget alone: answered, never kept.
    cache.set("huge", page(400), cache.generation);
    expect(cache.get("huge")).toBeUndefined();
    expect(cache.get("i")).toBeDefined();
  });
});
