import pino from "pino";
import { describe, expect, it } from "vitest";
import { writeBehind } from "../../src/server/infra/write-behind.ts";

const log = pino({ level: "silent" });

describe("writeBehind", () => {
  it("writes what is pending once, gives a failed batch back and keeps at most max", async () => {
    const written: number[][] = [];
    let failing = true;
    const notes = writeBehind<number>({
      everyMs: 60_000,
      max: 3,
      write: async (batch) => {
        if (failing) {
          // Arrived while the write was under way.
          notes.pending().set("a", 10);
          notes.pending().set("d", 4);
          throw new Error("database away");
        }
        written.push(batch);
        return batch.length;
      },
      giveBack: (failed, meanwhile) => failed + (meanwhile ?? 0),
      log,
      what: "numbers",
    });
    for (const [key, value] of [
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ] as const)
      notes.pending().set(key, value);
    expect(await notes.flush()).toBe(0);
    failing = false;
    // Given back into what arrived meanwhile ("a" adds up to 11), then the oldest key past three ("a") dropped.
    expect(await notes.flush()).toBe(3);
    expect(written).toEqual([[4, 2, 3]]);
    expect(await notes.flush()).toBe(0);
    await notes.close();
  });
});
