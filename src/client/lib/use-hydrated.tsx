import { createContext, type ReactNode, startTransition, useContext, useEffect, useState } from "react";

/** True wherever no server-rendered HTML is being hydrated: the default for screens the browser renders itself. */
const HydratedContext = createContext(true);
/** When the server rendered the HTML being hydrated (see `useServerNow`). */
const RenderedAtContext = createContext<number | undefined>(undefined);

/**
 * Marks the app as hydrating while it renders `hydrating` HTML (the server's render, and the browser hydrating it),
 * and as hydrated after the first commit. What it then shows (the session, the time zone, the stored colour mode)
 * is rendered as a transition, in slices, rather than as one long task.
 */
export function HydrationBoundary({
  hydrating,
  renderedAt,
  children,
}: {
  hydrating: boolean;
  renderedAt?: number;
  children: ReactNode;
}) {
  const [hydrated, setHydrated] = useState(!hydrating);
  useEffect(() => {
    if (!hydrated) startTransition(() => setHydrated(true));
  }, [hydrated]);
  return (
    <HydratedContext value={hydrated}>
      <RenderedAtContext value={renderedAt}>{children}</RenderedAtContext>
    </HydratedContext>
  );
}

/**
 * False while the server renders and while the browser hydrates its HTML, true afterwards (and at once on pages the
 * client renders itself). What only the browser knows (the session, the time zone, the stored colour mode) waits
 * for it, so the first client render matches the server's HTML.
 */
export const useHydrated = () => useContext(HydratedContext);

/**
 * The time relative times are counted from: the server's render while it renders and while the browser hydrates it
 * (a cached page may be minutes old, and "4 minutes ago" where the HTML says "3" would make React throw the page
 * away, with what a visitor typed into it), the browser's clock afterwards.
 */
export function useServerNow(): number | undefined {
  const hydrated = useHydrated();
  const renderedAt = useContext(RenderedAtContext);
  return hydrated ? undefined : renderedAt;
}
