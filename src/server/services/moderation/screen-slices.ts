import { setImmediate as nextTurn } from "node:timers/promises";
import { validationError } from "../../http-error.ts";
import type { Deps } from "../core/deps.ts";
import { REFUSED, screen, type Verdict } from "./filter.ts";

/** The filter reads this much of a text at a time (obscenity took up to half a second for 100,000 characters). */
const SLICE = 4000;
/** Slices overlap by this much, so a phrase across a cut is read whole in one of them. */
const OVERLAP = 200;

/** A (plain, spaces collapsed) text in slices cut at spaces, so no word is cut in two. */
function* slicesOf(text: string) {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + SLICE);
    const space = text.lastIndexOf(" ", end);
    if (end < text.length && space > start + SLICE / 2) end = space;
    yield text.slice(start, end);
    if (end >= text.length) return;
    const back = text.lastIndexOf(" ", end - OVERLAP);
    start = back > start ? back + 1 : end;
  }
}

/**
 * The filter's verdict on a post, as `screenOrRefuse` gives it, its text read a slice at a time with the
 * event loop free between slices: a long body does not hold the server while it is read.
 */
export async function screenInSlices(deps: Pick<Deps, "db">, fields: Record<string, string>): Promise<Verdict> {
  const found: Verdict[] = [];
  for (const [field, text] of Object.entries(fields))
    for (const slice of slicesOf(text)) {
      const verdict = await screen(deps, { [field]: slice });
      if (verdict.action !== "allow") found.push(verdict);
      await nextTurn();
    }
  const refused = found.filter((verdict) => verdict.action === "refuse");
  if (refused.length > 0) throw validationError([{ path: [refused[0]?.field ?? "text"], message: REFUSED }]);
  if (found.length === 0) return { action: "allow", terms: [], field: null };
  return {
    action: "hold",
    terms: [...new Set(found.flatMap((verdict) => verdict.terms))],
    field: found[0]?.field ?? null,
  };
}
