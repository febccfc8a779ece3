import { AsyncLocalStorage } from "node:async_hooks";

/**
 * How a write service tells the cached reads what it changed, once its change is committed: the tags of
 * `cacheTags`, `NOTHING_PUBLIC`, or `EVERYTHING`. Told before the transaction commits, a read in between would keep
 * what was there before.
 */
export type Changed = (tags: readonly string[] | null) => void;

/** One write request's record: whether what it ran said what it changed. */
export interface ChangeRecord {
  said: boolean;
}

/**
 * The one path from writes to the read cache, for requests and background jobs alike. A request runs `within` its
 * record, so the app can tell a write that said what it changed from one that forgot.
 */
export function createChangeLog(invalidate: (tags?: readonly string[]) => void) {
  const current = new AsyncLocalStorage<ChangeRecord>();
  const changed: Changed = (tags) => {
    const record = current.getStore();
    if (record) record.said = true;
    invalidate(tags ?? undefined);
  };
  return {
    changed,
    within: <T>(record: ChangeRecord, work: () => T): T => current.run(record, work),
  };
}
export type ChangeLog = ReturnType<typeof createChangeLog>;
