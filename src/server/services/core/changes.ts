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
 * The one path from writes to the read cache, for requests and background jobs alike. A write request's services
 * are handed its own `noting` one, so the app can tell a write that said what it changed from one that forgot.
 */
export function createChangeLog(invalidate: (tags?: readonly string[]) => void) {
  const changed: Changed = (tags) => invalidate(tags ?? undefined);
  return {
    changed,
    noting:
      (record: ChangeRecord): Changed =>
      (tags) => {
        record.said = true;
        changed(tags);
      },
  };
}
export type ChangeLog = ReturnType<typeof createChangeLog>;
