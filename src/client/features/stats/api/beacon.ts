import type { Beacon } from "#shared/schemas/stats.ts";

/** The address the document was loaded at: its first page, which the server rendered, counted a post's read itself. */
const documentPath = () => {
  const entry = performance.getEntriesByType?.("navigation")[0] as PerformanceNavigationTiming | undefined;
  return new URL(entry?.name ?? location.href).pathname;
};
let first = true;

/** Whether the reader asked not to be tracked (the server checks the headers too). */
const optedOut = () =>
  navigator.doNotTrack === "1" || (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl;

/**
 * Tells the stats that the app showed a post or a profile: one small request the browser sends even as the page
 * closes, with no cookie and no session. Not sent for the page the server rendered and counted, nor to one's own.
 */
export function sendReadBeacon(kind: Beacon["kind"], id: string) {
  const isFirst = first;
  first = false;
  if (kind === "post" && isFirst && documentPath() === location.pathname) return;
  if (optedOut()) return;
  const beacon: Beacon = {
    kind,
    id,
    url: `${location.pathname}${location.search}`.slice(0, 4096),
    // Where the reader came from, for the page the document opened on; a navigation inside the app has none.
    ...(isFirst && document.referrer ? { referrer: document.referrer.slice(0, 2048) } : {}),
  };
  const body = new Blob([JSON.stringify(beacon)], { type: "application/json" });
  if (!navigator.sendBeacon?.("/api/stats/beacon", body)) {
    void fetch("/api/stats/beacon", { method: "POST", body, keepalive: true }).catch(() => {});
  }
}
