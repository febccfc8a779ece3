import type { QueryClient } from "@tanstack/react-query";
import { type ComponentType, type ReactNode, StrictMode, useEffect } from "react";
import { getPost } from "../features/posts/api/get-post.ts";
import { postDetailId, queryKeys } from "../lib/query-keys.ts";
import { sessionStore } from "../lib/session.ts";
import { HydrationBoundary, useHydrated } from "../lib/use-hydrated.tsx";
import { AppProvider } from "./provider.tsx";
import { AppRoutes } from "./routes.tsx";

/** What a server-rendered page holds that is the same whoever reads it: not fetched again for a signed-in reader. */
const SAME_FOR_EVERYONE = new Set<unknown>([
  queryKeys.categories.all()[0],
  queryKeys.settings()[0],
  queryKeys.config()[0],
]);

/**
 * A server-rendered page is the same for everyone; once it is a signed-in reader's, what may differ for them is
 * fetched again with their own reactions (a post without counting its view twice).
 */
function AddReadersOwn({ queryClient }: { queryClient: QueryClient }) {
  useEffect(() => {
    if (!sessionStore.get()) return;
    for (const query of queryClient.getQueryCache().getAll()) {
      const id = postDetailId(query.queryKey);
      if (id)
        void queryClient.prefetchQuery({
          queryKey: queryKeys.posts.detail(id),
          queryFn: () => getPost(id, { counted: true }),
          staleTime: 0,
        });
    }
    void queryClient.invalidateQueries({
      predicate: (query) => !postDetailId(query.queryKey) && !SAME_FOR_EVERYONE.has(query.queryKey[0]),
    });
  }, [queryClient]);
  return null;
}

/** Tells when React has hydrated or rendered the page (effects run after the commit). */
function Started({ onStarted }: { onStarted: () => void }) {
  // Once what hydration reveals (the session, the colour mode) is in: a press held meanwhile acts on the page as
  // its reader sees it.
  const hydrated = useHydrated();
  useEffect(() => {
    if (hydrated) onStarted();
  }, [hydrated, onStarted]);
  return null;
}

/**
 * The whole app, the same tree on the server and in the browser: React derives `useId` values (which components use
 * to tie a menu to its button) from the tree's shape, so a hydrated page only works if both render this. `Router` is
 * React Router's declarative router for where it runs (the browser's history, or one address on the server): the app
 * loads no route data, so it does without the data router's code and its start-up (decision 021).
 */
export function Root({
  queryClient,
  Router,
  onStarted = () => {},
  hydrating = false,
  renderedAt,
}: {
  queryClient: QueryClient;
  /** The tree renders (on the server) or hydrates (in the browser) HTML the server rendered. */
  hydrating?: boolean;
  Router: ComponentType<{ children?: ReactNode }>;
  onStarted?: () => void;
  /** When the server rendered the HTML being hydrated: what relative times are counted from until it is hydrated. */
  renderedAt?: number;
}) {
  return (
    <StrictMode>
      <AppProvider queryClient={queryClient}>
        <HydrationBoundary hydrating={hydrating} renderedAt={renderedAt}>
          <Router>
            <AppRoutes />
          </Router>
          <AddReadersOwn queryClient={queryClient} />
          <Started onStarted={onStarted} />
        </HydrationBoundary>
      </AppProvider>
    </StrictMode>
  );
}
