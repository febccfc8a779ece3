import type { QueryClient } from "@tanstack/react-query";
import { StrictMode, useEffect } from "react";
import { type createBrowserRouter, RouterProvider } from "react-router-dom";
import { getPost } from "../features/posts/api/get-post.ts";
import { postKeys } from "../features/posts/api/keys.ts";
import { sessionStore } from "../lib/session.ts";
import { AppProvider } from "./provider.tsx";

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
 * The whole app, the same tree on the server and in the browser: React derives `useId` values (which components use
 * to tie a menu to its button) from the tree's shape, so a hydrated page only works if both render this.
 */
export function Root({
  queryClient,
  router,
  onStarted = () => {},
}: {
  queryClient: QueryClient;
  router: ReturnType<typeof createBrowserRouter>;
  onStarted?: () => void;
}) {
  return (
    <StrictMode>
      <AppProvider queryClient={queryClient}>
        <RouterProvider router={router} />
        <AddReadersOwn queryClient={queryClient} />
        <Started onStarted={onStarted} />
      </AppProvider>
    </StrictMode>
  );
}
