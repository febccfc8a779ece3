import type { FastifyBaseLogger } from "fastify";
import { periodic } from "./periodic.ts";

/**
 * Notes kept in memory by key and written in batches off the request path: every `everyMs`, on close, and again after
 * a failed write, when the batch is merged back into what arrived meanwhile and the oldest past `max` are dropped, with
 * a warning. One flush at a time; flush() never fails and resolves with what `write` counted.
 */
export function writeBehind<T>(options: {
  everyMs: number;
  max: number;
  write: (batch: T[]) => Promise<number>;
  /** A note of a failed batch given back, with the one that arrived under its key meanwhile. */
  giveBack: (failed: T, meanwhile: T | undefined) => T;
  log: FastifyBaseLogger;
  /** What the warning of a failed write names: "post views", "reading stats". */
  what: string;
}) {
  let pending = new Map<string, T>();
  let flushing: Promise<number> = Promise.resolve(0);

  async function flushNow(): Promise<number> {
    if (pending.size === 0) return 0;
    const batch = pending;
    pending = new Map();
    try {
      return await options.write([...batch.values()]);
    } catch (error) {
      for (const [key, item] of batch) pending.set(key, options.giveBack(item, pending.get(key)));
      while (pending.size > options.max) pending.delete(pending.keys().next().value as string);
      options.log.warn({ err: error, pending: pending.size }, `${options.what} not written yet; will retry`);
      return 0;
    }
  }

  const notes = {
    /** What waits for the next flush (a new map after each). */
    pending: () => pending,
    /** Writes what is pending; resolves with what `write` counted. */
    flush(): Promise<number> {
      flushing = flushing.then(flushNow, flushNow);
      return flushing;
    },
    start: () => timer.start(),
    async close() {
      await timer.close();
      await notes.flush();
    },
  };
  // flush() never fails: a failed write keeps its notes for the next.
  const timer = periodic(() => notes.flush(), { everyMs: options.everyMs, onError: () => {} });
  return notes;
}
