import { useEffect, useState } from "react";
import { format } from "timeago.js";
import { TIMEAGO_REFRESH_MS } from "#shared/constants.ts";
import { formatLocalDateTime } from "../lib/format.ts";
import { useHydrated, useServerNow } from "../lib/use-hydrated.tsx";

/**
 * "5 minutes ago", refreshed every 60 s (docs/specification.md §Constants and limits); the exact time is in the tooltip
 * and for screen readers.
 */
export function TimeAgo({ iso }: { iso: string }) {
  const [, tick] = useState(0);
  // The reader's own clock and time zone, once the page is theirs.
  const hydrated = useHydrated();
  // Until hydrated, the server's "now", so the text is the HTML's; then the browser's, ticking.
  const now = useServerNow();
  useEffect(() => {
    const timer = setInterval(() => tick((value) => value + 1), TIMEAGO_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <time dateTime={iso} title={hydrated ? formatLocalDateTime(iso) : undefined}>
      {format(iso, undefined, now === undefined ? undefined : { relativeDate: now })}
    </time>
  );
}
