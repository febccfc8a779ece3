import { createContext, type ReactNode, startTransition, useContext, useEffect, useState } from "react";

/** True wherever no server-rendered HTML is being hydrated: the default for screens the browser renders itself. */
const HydratedContext = createContext(true);

/**
 * Marks the app as hydrating while it renders `hydrating` HTML (the server's render, and the browser hydrating it),
 * and as hydrated after the first commit. What it then shows (the session, the time zone, the stored colour mode)
 * is rendered as a transition, in slices, rather than as one long task.
 */
export function HydrationBoundary({ hydrating, children }: { hydrating: boolean; children: ReactNode }) {
  const [hydrated, setHydrated] = useState(!hydrating);
  useEffect(() => {
    if (!hydrated) startTransition(() => setHydrated(true));
  }, [hydrated]);
  return <HydratedContext value={hydrated}>{children}</HydratedContext>;
}

/**
 * False while the server renders and while the browser hydrates its HTML, true afterwards (and at once on pages the
 * client renders itself). What only the browser knows (the session, the time zone, the stored colour mode) waits
 * for it, so the first client render matches the server's HTML.
 */
export const useHydrated = () => useContext(HydratedContext);
