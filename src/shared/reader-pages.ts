import type { Category } from "./schemas/categories.ts";
import type { Page } from "./schemas/pagination.ts";
import type { Post, PostDetail } from "./schemas/posts.ts";
import type { SiteSettings } from "./schemas/settings.ts";

/**
 * What a list of posts shows: a category (title), an author (id), the posts matching search words, or (signed in)
 * the posts of the authors the reader follows.
 */
export type PostFilter = { category?: string; author?: string; q?: string; following?: true };

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

/**
 * A page's head as data: the renderer decides it from what it loaded, the server writes it out (escaped, with
 * PUBLIC_URL) as title, description, canonical address, link previews, JSON-LD and feeds.
 */
export interface PageHead {
  siteName: string;
  /** The page's own title ("" on the home page: the site's name alone). */
  title: string;
  description: string;
  /** The page's own address under PUBLIC_URL: path and the query that changes what it shows. */
  path: string;
  /** Feeds that carry what the page lists. */
  feeds: { title: string; path: string }[];
  /** On a post's page: the post (an article in link previews and JSON-LD). */
  post?: Post;
  /** Kept out of search engines (a missing post, an unknown category, search results). */
  noindex?: boolean;
}

export interface RenderedPage {
  status: 200 | 404;
  head: PageHead;
  /** What takes the place of the template's empty root: the rendered root element and the state it hydrates from. */
  html: string;
  /** The styles of what it shows, for its head: one `<style>` element (or nothing). */
  styles: string;
}

/** The empty root of the built index.html, where a rendered page goes. */
export const EMPTY_ROOT = '<div id="root"></div>';

/** How many posts a list page shows at first, on the server and in the client. */
export const POSTS_PAGE_SIZE = 12;
