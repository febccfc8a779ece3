import { hydrate as hydrateQueries } from "@tanstack/react-query";
import { createRoot, hydrateRoot } from "react-dom/client";
import { createBrowserRouter } from "react-router-dom";
import { PAGE_STATE_ID } from "./app/page-shell.ts";
import { createQueryClient } from "./app/provider.tsx";
import { Root } from "./app/root.tsx";
import { routes } from "./app/routes.tsx";

/**
 * Starts the app in `root`: hydrates a page the server rendered (`hydrate`, see entry-server.tsx), or renders one.
 * Resolves once the page is React's, so clicks held until then can be replayed (see main.tsx).
 */
export function start(root: HTMLElement, hydrate: boolean) {
  const queryClient = createQueryClient();
  const state = document.getElementById(PAGE_STATE_ID);
  if (state?.textContent) hydrateQueries(queryClient, JSON.parse(state.textContent));
  return new Promise<void>((resolve) => {
    const app = <Root queryClient={queryClient} router={createBrowserRouter(routes)} onStarted={resolve} />;
    if (hydrate) hydrateRoot(root, app);
    else createRoot(root).render(app);
  });
}
