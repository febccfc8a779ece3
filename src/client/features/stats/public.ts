import { useEffect } from "react";
import type { Beacon } from "#shared/schemas/stats.ts";
import { sessionStore } from "../../lib/session.ts";
import { sendReadBeacon } from "./api/beacon.ts";

/** Counts a read of a post or a profile for its author's stats, once per showing; never one's own. */
export function useReadBeacon(kind: Beacon["kind"], id: string | undefined, ownerId: string | undefined) {
  useEffect(() => {
    // The stored session (the effect runs in the browser): a hydrating page's own has not come yet.
    if (id && ownerId && sessionStore.get()?.id !== ownerId) sendReadBeacon(kind, id);
  }, [kind, id, ownerId]);
}
