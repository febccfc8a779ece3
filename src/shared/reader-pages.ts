import type { Category } from "./schemas/categories.ts";
import type { Page } from "./schemas/pagination.ts";
import type { Post, PostDetail } from "./schemas/posts.ts";
import type { SiteSettings } from "./schemas/settings.ts";

/**
 * The seam between the server and its renderer of reader pages (a module built from src/client): the server
 * hands the renderer these loaders, answering exactly what the matching API calls would, and the renderer asks
 * for what the page shows.
 */
export interface ReaderLoaders {
  /** `GET /api/posts?limit=12[&category=]`'s first page. */
  posts(filter: { category?: string }): Promise<Page<Post>>;
  /** `GET /api/posts/{id}`, or null when there is no such post. */
  post(id: string): Promise<PostDetail | null>;
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
