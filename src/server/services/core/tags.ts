/**
 * What a cached read shows, as tags: a read is kept with the tags of everything it shows, and a write says which of
 * them it changed (`deps.changed`), which drops every read showing one. Each tag is spelled here once.
 */
export const cacheTags = {
  /** Every list of posts (a new or removed post changes them all), feeds and the sitemap. */
  posts: "posts",
  /** A post as its author wrote it: title, text, category, image, state, tips. */
  post: (id: string) => `post:${id}`,
  /** A post's likes, dislikes and comments counts, which readers change all the time: kept apart from pages. */
  counts: (id: string) => `counts:${id}`,
  /** A post's comments: one edited, removed or hidden. */
  comments: (id: string) => `comments:${id}`,
  /**
   * A comment added under a post: the API's answers show it at once, a rendered page at its next render
   * (decision 019).
   */
  newComment: (id: string) => `new-comment:${id}`,
  /** What shows this user's name, photo or wallet: their posts and comments. */
  user: (id: string) => `user:${id}`,
  /** A signed-in reader's own reaction to one post: their like elsewhere leaves their other copies as they are. */
  reaction: (readerId: string, postId: string) => `reaction:${readerId}:${postId}`,
  categories: "categories",
  settings: "settings",
} as const;

/** Said by a write that changed nothing a public read shows (sessions, mail, follows, private settings). */
export const NOTHING_PUBLIC: readonly string[] = [];
/** Said by a write that may change anything (an admin's block removes a writer from every page). */
export const EVERYTHING = null;
