/** Every cache key of posts; other features invalidate through these, never with literals. */
export type PostFilter = { category?: string; author?: string };

export const postKeys = {
  lists: () => ["posts"] as const,
  list: (filter: PostFilter) => ["posts", filter] as const,
  detail: (id: string) => ["post", id] as const,
};
