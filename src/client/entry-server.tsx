import { dehydrate } from "@tanstack/react-query";
import { prerenderToNodeStream } from "react-dom/static";
import { createMemoryRouter } from "react-router-dom";
import { type PostFilter, postFilterOf, type ReaderLoaders, type RenderedPage } from "../shared/reader-pages.ts";
import { createQueryClient } from "./app/provider.tsx";
import { Root } from "./app/root.tsx";
import { routes } from "./app/routes.tsx";
import { categoriesQueryOptions } from "./features/categories/api/get-categories.ts";
import { postKeys } from "./features/posts/api/keys.ts";
import { siteSettingsQueryOptions } from "./lib/site-settings.ts";

/**
 * Renders a reader page (`/`, `/posts`, `/posts/{id}`, `/search`) to HTML on the server, from the same components the browser
 * hydrates. The server loads this module from the build (dist/server) and hands it loaders backed by its services;
 * the page's data goes into a query cache that is sent along, so the browser fetches nothing again.
 */
export async function render(url: string, load: ReaderLoaders): Promise<RenderedPage> {
  const { pathname, searchParams } = new URL(url, "http://localhost");
  const queryClient = createQueryClient();
  const postId = /^\/posts\/([^/]+)$/.exec(pathname)?.[1];
  const category = pathname === "/posts" ? postFilterOf(searchParams).category : undefined;
  const knownCategory = category === undefined || (await load.categoryExists(category));
  const [settings] = await Promise.all([
    load.settings(),
    pathname === "/posts" && knownCategory && fillPosts(postFilterOf(searchParams)),
    // An empty search lists nothing: the page only asks for words.
    pathname === "/search" && searchParams.get("q")?.trim() && fillPosts(postFilterOf(searchParams, true)),
  ]);
  queryClient.setQueryData(siteSettingsQueryOptions().queryKey, settings);
  const post = postId ? await load.post(decodeURIComponent(postId)) : undefined;
  if (post) queryClient.setQueryData(postKeys.detail(post.id), post);
  // An unknown post or category answers 404 with the not-found page (an address no route matches); the browser
  // renders its own.
  const found = post !== null && knownCategory;

  // A memory router, so the tree is the browser's own (see app/root.tsx); the reader pages load no route data.
  const router = createMemoryRouter(routes, { initialEntries: [found ? url : "/not-found/"] });
  const { prelude } = await prerenderToNodeStream(
    <Root queryClient={queryClient} router={router} />,
    // One piece of HTML: React would otherwise move large parts behind a script, which the CSP does not run.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  let html = "";
  for await (const chunk of prelude) html += chunk;
  return { status: found ? 200 : 404, html, hydrate: found, state: JSON.stringify(dehydrate(queryClient)) };

  async function fillPosts(filter: PostFilter) {
    const [posts, categories] = await Promise.all([load.posts(filter), load.categories()]);
    queryClient.setQueryData(postKeys.list(filter), { pages: [posts], pageParams: [null] });
    queryClient.setQueryData(categoriesQueryOptions().queryKey, categories);
  }
}
