import { useEffect, useState } from "react";
import { format } from "timeago.js";
import { TIMEAGO_REFRESH_MS } from "../../shared/constants.ts";

/** "5 minutes ago", refreshed every 60 s as the spec says; the exact time is in the tooltip and for screen readers. */
export function TimeAgo({ iso }: { iso: string }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => tick((value) => value + 1), TIMEAGO_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <time dateTime={iso} title={new Date(iso).toLocaleString()}>
      {format(iso)}
    </time>
  );
}
