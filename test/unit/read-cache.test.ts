import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import { createBus } from "../../src/server/infra/bus.ts";
import { createReadCache } from "../../src/server/infra/read-cache.ts";

const log = pino({ level: "silent" });
const page = (size: number) => ({ items: "x".repeat(size) });

describe("the read cache", () => {
  it("answers what it kept, with a weak ETag of the bytes", () => {
    const cache = createReadCache({ log, bus: createBus({ log }) });
    const stored = cache.set("a", page(10), cache.clock, []);
    expect(cache.get("a")?.body.toString()).toBe(JSON.stringify(page(10)));
    expect(stored.etag).toMatch(/^W\/"[\w-]+"$/);
    expect(cache.set("b", page(11), cache.clock, []).etag).not.toBe(stored.etag);
  });

  it("forgets everything when told everything changed, and does not keep what was read before", () => {
    const cache = createReadCache({ log, bus: createBus({ log }) });
    cache.set("a", page(1), cache.clock, ["post:1"]);
    const readBefore = cache.clock;
    cache.invalidate();
    expect(cache.get("a")).toBeUndefined();
    expect(cache.set("b", page(1), readBefore, []).body.length).toBeGreaterThan(0);
    expect(cache.get("b")).toBeUndefined();
    cache.setDerived("p", { x: 1 }, [{ readAt: readBefore, tags: [] }]);
    expect(cache.getDerived("p")).toBeUndefined();
  });

  it("drops only the entries that show a changed tag, and keeps a read of an unchanged one", () => {
    const cache = createReadCache({ log, bus: createBus({ log }) });
    cache.set("list", page(1), cache.clock, ["posts", "post:1", "post:2"]);
    cache.set("one", page(1), cache.clock, ["post:1"]);
    cache.set("two", page(1), cache.clock, ["post:2"]);
    cache.setDerived("mine", { liked: true }, [{ readAt: cache.clock, tags: ["reader:u", "post:1"] }]);
    cache.setDerived("theirs", { liked: true }, [{ readAt: cache.clock, tags: ["reader:v", "post:2"] }]);
    const readBefore = cache.clock;
    cache.invalidate(["post:1"]);
    expect(cache.get("list")).toBeUndefined();
    expect(cache.get("one")).toBeUndefined();
    expect(cache.get("two")).toBeDefined();
    expect(cache.getDerived("mine")).toBeUndefined();
    expect(cache.getDerived("theirs")?.body.toString()).toBe('{"liked":true}');
    // Read before the change: kept only if it shows nothing that changed.
    cache.set("late-one", page(1), readBefore, ["post:1"]);
    cache.set("late-three", page(1), readBefore, ["post:3"]);
    expect(cache.get("late-one")).toBeUndefined();
    expect(cache.get("late-three")).toBeDefined();
    expect(cache.stats()).toMatchObject({ invalidated: 2, entries: 2 });
  });

  it("keeps a reader's copy only while both what it was made from and their own part are unchanged", () => {
    const cache = createReadCache({ log, bus: createBus({ log }) });
    const shared = cache.set("list", page(1), cache.clock, ["posts", "post:1"]);
    cache.invalidate(["reader:u"]);
    // The shared answer was read before the reader's own change, which it does not show: their copy is kept.
    const own = { readAt: cache.clock, tags: ["reader:u"] };
    expect(cache.setDerived("mine", { own: true }, [shared, own]).tags).toEqual(["posts", "post:1", "reader:u"]);
    expect(cache.getDerived("mine")).toBeDefined();
    // Made from a shared answer that changed meanwhile: answered, not kept.
    cache.invalidate(["post:1"]);
    cache.setDerived("stale", { own: true }, [shared, { readAt: cache.clock, tags: ["reader:u"] }]);
    expect(cache.getDerived("stale")).toBeUndefined();
    expect(cache.getDerived("mine")).toBeUndefined();
  });

  it("lets readers who miss together share one read, unless something it shows changed since it began", async () => {
    const cache = createReadCache({ log, bus: createBus({ log }) });
    const waiting: (() => void)[] = [];
    const release = async () => {
      for (const resolve of waiting.splice(0)) resolve();
      await new Promise((resolve) => setImmediate(resolve));
    };
    let reads = 0;
    const produce = () => {
      reads++;
      return new Promise<object>((resolve) => waiting.push(() => resolve(page(reads))));
    };
    const first = cache.through("a", produce, () => ["post:1"]);
    const second = cache.through("a", produce, () => ["post:1"]);
    expect(reads).toBe(1);
    await release();
    expect((await first).body).toBe((await second).body);

    // A write to something else since the read began: the later reader waits for it and shares it.
    cache.invalidate(["post:1"]);
    const before = cache.through("a", produce, () => ["post:1"]);
    cache.invalidate(["post:2"]);
    const after = cache.through("a", produce, () => ["post:1"]);
    await release();
    expect(reads).toBe(2);
    expect((await after).body).toBe((await before).body);

    // A write to what it shows since the read began may be the later reader's own: they read for themselves.
    cache.invalidate(["post:1"]);
    const stale = cache.through("a", produce, () => ["post:1"]);
    cache.invalidate(["post:1"]);
    const fresh = cache.through("a", produce, () => ["post:1"]);
    expect(reads).toBe(3);
    // Once the first read is in, the later reader finds what it shows changed and reads again.
    await release();
    expect(reads).toBe(4);
    await release();
    expect((await fresh).body.toString()).toBe(JSON.stringify(page(4)));
    expect((await stale).body.toString()).toBe(JSON.stringify(page(3)));
    expect(cache.get("a")?.body.toString()).toBe(JSON.stringify(page(4)));
  });

  it("counts hits and misses", () => {
    const cache = createReadCache({ log, bus: createBus({ log }) });
    cache.get("a");
    cache.set("a", page(1), cache.clock, []);
    cache.get("a");
    cache.get("a");
    expect(cache.stats()).toMatchObject({ hits: 2, misses: 1 });
  });

  it("lets entries live maxAgeMs at most", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const cache = createReadCache({ log, bus: createBus({ log }), maxAgeMs: 5000 });
    cache.set("a", page(1), cache.clock, []);
    vi.advanceTimersByTime(4000);
    expect(cache.get("a")).toBeDefined();
    vi.advanceTimersByTime(1500);
    expect(cache.get("a")).toBeUndefined();
    vi.useRealTimers();
  });

  it("keeps a derived answer's bytes and only what its format keeps of the value; a stale one up to a minute", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const cache = createReadCache({ log, bus: createBus({ log }), maxAgeMs: 5000 });
    const html = {
      type: "text/html",
      encode: (value: unknown) => (value as { document: string }).document,
      kept: (value: unknown) => ({ ...(value as object), document: "" }),
    };
    cache.setDerived(
      "page",
      { document: "<p>the page</p>", status: 200 },
      [{ readAt: cache.clock, tags: ["t"] }],
      html,
    );
    const kept = cache.getDerived("page");
    expect(kept?.body.toString()).toBe("<p>the page</p>");
    expect(kept?.value).toEqual({ document: "", status: 200 });
    // Past its age it is stale, servable while it waits for its render, for a minute more at most.
    vi.advanceTimersByTime(5001);
    expect(cache.getDerived("page")).toBeUndefined();
    vi.advanceTimersByTime(59_000);
    expect(cache.staleDerived("page")?.body.toString()).toBe("<p>the page</p>");
    vi.advanceTimersByTime(1000);
    expect(cache.staleDerived("page")).toBeUndefined();
    vi.useRealTimers();
  });

  it("stays within its byte budget, oldest out first, and keeps no single huge answer", () => {
    const cache = createReadCache({ log, bus: createBus({ log }), maxBytes: 5000 });
    const keys = ["a", "b", "c", "d", "e", "f", "g", "h"];
    // Each weighs 2 × 302 bytes (its JSON and its parsed copy): eight fit in 5,000.
    for (const key of keys) cache.set(key, page(290), cache.clock, [`t:${key}`]);
    expect(keys.every((key) => cache.get(key))).toBe(true);
    cache.set("i", page(290), cache.clock, []);
    expect(cache.get("a")).toBeUndefined();
    expect(keys.slice(1).every((key) => cache.get(key))).toBe(true);
    // Over an eighth of the budget alone: answered, never kept.
    cache.set("huge", page(400), cache.clock, []);
    expect(cache.get("huge")).toBeUndefined();
    expect(cache.get("i")).toBeDefined();
    // An evicted entry's tags no longer name it.
    cache.invalidate(["t:a"]);
    expect(cache.stats().invalidated).toBe(0);
  });
});
