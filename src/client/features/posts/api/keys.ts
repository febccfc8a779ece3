import type { PostFilter } from "../../../../shared/reader-pages.ts";

export type { PostFilter };

/** Every cache key of posts; other features invalidate through these, never with literals. */

export const postKeys = {
  lists: () => ["posts"] as const,
  list: (filter: PostFilter) => ["posts", filter] as const,
  detail: (id: string) => ["post", id] as const,
  /** The signed-in author's drafts and scheduled posts. */
  drafts: () => ["posts", "drafts"] as const,
};

/** The id of a post detail's key (`["post", id]`), or null for any other key (older comments sit under it). */
export const postDetailId = (key: readonly unknown[]) =>
  key[0] === "post" && key.length === 2 && typeof key[1] === "string" ? key[1] : null;
