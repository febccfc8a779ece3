import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False while the server renders and while the browser hydrates its HTML, true afterwards (and at once on pages the
 * client renders itself). What only the browser knows (the session, the time zone, the stored colour mode) waits
 * for it, so the first client render matches the server's HTML.
 */
export const useHydrated = () =>
  useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
