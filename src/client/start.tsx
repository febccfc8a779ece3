import { hydrate as hydrateQueries, type QueryClient } from "@tanstack/react-query";
import { StrictMode, useEffect } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router-dom";
import { AppProvider, createQueryClient } from "./app/provider.tsx";
import { routes } from "./app/routes.tsx";
import { getPost } from "./features/posts/api/get-post.ts";
import { postKeys } from "./features/posts/api/keys.ts";
import { sessionStore } from "./lib/session.ts";

/**
 * A server-rendered page is the same for everyone; once it is a signed-in reader's, it is fetched again with their
 * own reactions (a post without counting its view twice).
 */
function AddReadersOwn({ queryClient }: { queryClient: QueryClient }) {
  useEffect(() => {
    if (!sessionStore.get()) return;
    for (const query of queryClient.getQueryCache().getAll()) {
      const [kind, id] = query.queryKey;
      if (kind === postKeys.detail("")[0] && typeof id === "string" && query.queryKey.length === 2) {
        void queryClient.prefetchQuery({
          queryKey: query.queryKey,
          queryFn: () => getPost(id, { counted: true }),
          staleTime: 0,
        });
      } else void queryClient.invalidateQueries({ queryKey: query.queryKey, exact: true });
    }
  }, [queryClient]);
  return null;
}

/** Tells when React has hydrated or rendered the page (effects run after the commit). */
function Started({ onStarted }: { onStarted: () => void }) {
  useEffect(onStarted, [onStarted]);
  return null;
}

/**
 * Starts the app in `root`: hydrates a page the server rendered (`hydrate`), or renders one. Resolves once the page
 * is React's, so clicks held until then can be replayed.
 */
export function start(root: HTMLElement, hydrate: boolean) {
  const queryClient = createQueryClient();
  const state = document.getElementById("page-state");
  if (state?.textContent) hydrateQueries(queryClient, JSON.parse(state.textContent));
  return new Promise<void>((resolve) => {
    const app = (
      <StrictMode>
        <AppProvider queryClient={queryClient}>
          <RouterProvider router={createBrowserRouter(routes)} />
          {state && <AddReadersOwn queryClient={queryClient} />}
          <Started onStarted={resolve} />
        </AppProvider>
      </StrictMode>
    );
    if (hydrate) hydrateRoot(root, app);
    else createRoot(root).render(app);
  });
}
