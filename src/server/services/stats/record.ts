import type { Deps } from "../core/deps.ts";
import { NOTHING_PUBLIC } from "../core/tags.ts";
import { type ReadRequest, readOf } from "./read-from-request.ts";
import type { StatsRecorder } from "./recorder.ts";

/**
 * Records a read for the stats, or nothing when the reader opted out or is a bot. It writes nothing now (the recorder
 * adds reads up off the request path) and changes no public read: the stats are their owners' only.
 */
export function recordRead(deps: Pick<Deps, "config" | "changed">, recorder: StatsRecorder, request: ReadRequest) {
  const read = deps.config.stats ? readOf(deps.config.jwtSecret ?? "", request) : null;
  if (read) recorder.record(read);
  deps.changed(NOTHING_PUBLIC);
}
