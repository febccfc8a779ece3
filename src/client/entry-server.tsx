import createCache from "@emotion/cache";
import { CacheProvider } from "@emotion/react";
import { dehydrate, type QueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { prerenderToNodeStream } from "react-dom/static";
import { StaticRouter } from "react-router-dom";
import {
  type PageHead,
  type PostFilter,
  postFilterOf,
  type ReaderLoaders,
  type RenderedPage,
} from "#shared/reader-pages.ts";
import type { SiteSettings } from "#shared/schemas/settings.ts";
import { pageHeads } from "./app/page-heads.ts";
import { pageShell } from "./app/page-shell.ts";
import { createQueryClient } from "./app/provider.tsx";
import { Root } from "./app/root.tsx";
import { preloadScreen } from "./app/routes.tsx";
import { screenAt } from "./app/screen-table.ts";
import { categoriesQueryOptions } from "./features/categories/api/get-categories.ts";
import { queryKeys } from "./lib/query-keys.ts";
import { siteSettingsQueryOptions } from "./lib/site-settings.ts";

/** What a reader page loaded: its head, and whether there is such a page (an unknown post or category is a 404). */
type Loaded = { head: PageHead; found: boolean };

/**
 * Renders a reader page (`/`, `/posts`, `/posts/{id}`, `/search`) a visitor's form (`/login`, `/register`,
 * `/password-reset-token`) or Create Blog's empty form on the server, from the same components the browser
 * hydrates: its status, its head (as data) and its root element. The server loads this module from the build
 * (dist/server) and hands it loaders backed by its services; the page's data goes into a query cache that is sent
 * along, so the browser fetches nothing again.
 */
export async function render(url: string, load: ReaderLoaders): Promise<RenderedPage> {
  const address = new URL(url, "http://localhost");
  const queryClient = createQueryClient();
  const site = await load.settings();
  queryClient.setQueryData(siteSettingsQueryOptions().queryKey, site);
  const { head, found } = await loadPage(address, load, queryClient, site);
  await preloadScreen(found ? address.pathname : "/not-found/");

  // The page's one address, in the same tree as the browser's (see app/root.tsx). A page that is not found renders
  // the not-found page (an address no route matches); the browser renders its own.
  const Router = ({ children }: { children?: ReactNode }) => (
    <StaticRouter location={found ? url : "/not-found/"}>{children}</StaticRouter>
  );
  const { cache, styles: pageStyles } = recordingCache();
  const renderedAt = Date.now();
  const { prelude } = await prerenderToNodeStream(
    <CacheProvider value={cache}>
      <Root queryClient={queryClient} Router={Router} hydrating renderedAt={renderedAt} />
    </CacheProvider>,
    // One piece of HTML: React would otherwise move large parts behind a script, which the CSP does not run.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  let rendered = "";
  for await (const chunk of prelude) rendered += chunk;
  const { markup, styles } = hoistStyles(rendered, pageStyles);
  // Home has no entry of its own in the table: it is public like every reader page.
  const startNow = found && (screenAt(address.pathname)?.access ?? "public") !== "public";
  return {
    status: found ? 200 : 404,
    head,
    html: pageShell(markup, dehydrate(queryClient), { hydrate: found, startNow, renderedAt }),
    styles,
  };
}

/**
 * Emotion's cache for one render, noting each style it compiles (its names and CSS, in the order met). Emotion writes
 * a style beside the first element it meets with it only, but React renders a Suspense boundary's fallback as well as
 * its content on the server and keeps one: a style first met in a fallback that was then dropped was missing from the
 * page (Create Blog's description came unstyled, then moved the form down when the app started). Chakra UI's global
 * styles (inserted uncached) are not noted: they are in index.html.
 */
function recordingCache() {
  const cache = createCache({ key: "css" });
  const styles = new Map<string, string>();
  const insert = cache.insert;
  cache.insert = (selector, serialized, sheet, shouldCache) => {
    const rules = insert(selector, serialized, sheet, shouldCache);
    if (shouldCache && rules && !styles.has(serialized.name)) styles.set(serialized.name, rules);
    return rules;
  };
  return { cache, styles };
}

/** An Emotion `<style>` element as its server render writes it. */
const EMOTION_STYLE = /<style data-emotion="[^"]*"[^>]*>[^<]*<\/style>/g;

/**
 * Emotion writes the styles of each component beside it, dozens of `<style>` elements through the page, which the
 * browser recalculates the page's styles for as it meets them and Emotion moves into the head (each one parsed
 * again) before React hydrates. The render's styles go into the head instead, as one element marked the way Emotion
 * marks those it has moved (`data-s`), so it only takes note of their names. (Chakra UI's global styles are in
 * index.html; see scripts/lib/global-styles.ts.)
 */
function hoistStyles(rendered: string, styles: Map<string, string>) {
  const markup = rendered.replace(EMOTION_STYLE, "");
  if (styles.size === 0) return { markup, styles: "" };
  const names = [...styles.keys()].join(" ");
  return { markup, styles: `<style data-emotion="css ${names}" data-s="">${[...styles.values()].join("")}</style>` };
}

async function loadPage(address: URL, load: ReaderLoaders, queryClient: QueryClient, site: SiteSettings) {
  const { pathname, searchParams } = address;
  const fillPosts = async (filter: PostFilter) => {
    const [posts, categories] = await Promise.all([load.posts(filter), load.categories()]);
    queryClient.setQueryData(queryKeys.posts.list(filter), { pages: [posts], pageParams: [null] });
    queryClient.setQueryData(categoriesQueryOptions().queryKey, categories);
  };

  if (pathname === "/posts") {
    const filter = postFilterOf(searchParams);
    if (filter.category !== undefined && !(await load.categoryExists(filter.category))) {
      return { head: pageHeads.categoryNotFound(site), found: false } satisfies Loaded;
    }
    await fillPosts(filter);
    return { head: pageHeads.posts(site, filter.category), found: true } satisfies Loaded;
  }
  if (pathname === "/search") {
    const filter = postFilterOf(searchParams, true);
    // An empty search lists nothing: the page only asks for words.
    if (filter.q) await fillPosts(filter);
    return { head: pageHeads.search(site, filter.q), found: true } satisfies Loaded;
  }
  if (pathname === "/login" || pathname === "/register" || pathname === "/password-reset-token") {
    return { head: pageHeads.form(site, pathname), found: true } satisfies Loaded;
  }
  // Create Blog's form is the same for every author until the browser fills in theirs.
  if (pathname === "/create-post") {
    queryClient.setQueryData(categoriesQueryOptions().queryKey, await load.categories());
    return { head: pageHeads.createPost(site), found: true } satisfies Loaded;
  }
  const postId = /^\/posts\/([^/]+)$/.exec(pathname)?.[1];
  if (postId !== undefined) {
    // A malformed escape names no post (Fastify refuses most of them before this).
    const id = (() => {
      try {
        return decodeURIComponent(postId);
      } catch {
        return postId;
      }
    })();
    const post = await load.post(id);
    if (!post) return { head: pageHeads.postNotFound(site, id), found: false } satisfies Loaded;
    queryClient.setQueryData(queryKeys.posts.detail(post.id), post);
    return { head: pageHeads.post(site, post), found: true } satisfies Loaded;
  }
  return { head: pageHeads.home(site), found: true } satisfies Loaded;
}
