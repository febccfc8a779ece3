import type { Category } from "./schemas/categories.ts";
import type { Page } from "./schemas/pagination.ts";
import type { Post, PostDetail } from "./schemas/posts.ts";
import type { SiteSettings } from "./schemas/settings.ts";

/** What a list of posts shows: a category (title), an author (id), the posts matching search words. */
export type PostFilter = { category?: string; author?: string; q?: string };

/**
 * The filter of a list page's address (`/posts?category=`, `/search?q=&category=&author=`), without empty values:
 * the server renderer and the browser must build the very same query key from it.
 */
export function postFilterOf(params: URLSearchParams, search = false): PostFilter {
  const filter: PostFilter = {};
  for (const name of search ? (["q", "category", "author"] as const) : (["category"] as const)) {
    const value = params.get(name)?.trim();
    if (value) filter[name] = value;
  }
  return filter;
}

/**
 * The seam between the server and its renderer of reader pages (a module built from src/client): the server
 * hands the renderer these loaders, answering exactly what the matching API calls would, and the renderer asks
 * for what the page shows.
 */
export interface ReaderLoaders {
  /** `GET /api/posts?limit=12[&category=][&author=][&q=]`'s first page (with `q`: search results). */
  posts(filter: PostFilter): Promise<Page<Post>>;
  /** `GET /api/posts/{id}`, or null when there is no such post. */
  post(id: string): Promise<PostDetail | null>;
  /** Whether a category of this title (any case) exists: an unknown one's list is a 404 page. */
  categoryExists(title: string): Promise<boolean>;
  categories(): Promise<Page<Category>>;
  settings(): Promise<SiteSettings>;
}

export interface RenderedPage {
  status: 200 | 404;
  /** The markup for `#root`, with its styles. */
  html: string;
  /** Whether the browser hydrates the markup (a 404 shows the not-found page until the client renders its own). */
  hydrate: boolean;
  /** The client's query cache, to hydrate from without fetching again (JSON). */
  state: string;
}

/** How many posts a list page shows at first, on the server and in the client. */
export const POSTS_PAGE_SIZE = 12;
