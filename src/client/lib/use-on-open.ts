import { useEffect, useRef } from "react";

/**
 * Runs `action` once, when the page opens in the browser: what a mailed link does (confirm, unsubscribe) is done by
 * its page, not by the address, so a mail scanner that only fetches links changes nothing.
 */
export function useOnOpen(action: () => void) {
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    action();
  }, [action]);
}
