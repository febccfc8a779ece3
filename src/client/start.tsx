import { hydrate as hydrateQueries } from "@tanstack/react-query";
import { startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { PAGE_STATE_ID, RENDERED_AT_ATTRIBUTE } from "./app/page-shell.ts";
import { createQueryClient } from "./app/provider.tsx";
import { Root } from "./app/root.tsx";
import { preloadScreen } from "./app/routes.tsx";

/**
 * Starts the app in `root`: hydrates a page the server rendered (`hydrate`, see entry-server.tsx), or renders one.
 * Resolves once the page is React's, so clicks held until then can be replayed (see main.tsx). The first render is
 * a transition, which React works through in slices of a few milliseconds, so a phone stays responsive while the
 * page starts; the screen's own chunk is fetched first, so hydration does not stop to wait for it.
 */
export async function start(root: HTMLElement, hydrate: boolean) {
  const queryClient = createQueryClient();
  const state = document.getElementById(PAGE_STATE_ID);
  if (state?.textContent) hydrateQueries(queryClient, JSON.parse(state.textContent));
  await preloadScreen(location.pathname);
  const renderedAt = Number(root.getAttribute(RENDERED_AT_ATTRIBUTE)) || Date.now();
  return new Promise<void>((resolve) => {
    const app = (
      <Root
        queryClient={queryClient}
        Router={BrowserRouter}
        onStarted={resolve}
        hydrating={hydrate}
        renderedAt={renderedAt}
      />
    );
    startTransition(() => {
      if (hydrate) hydrateRoot(root, app);
      else createRoot(root).render(app);
    });
  });
}
