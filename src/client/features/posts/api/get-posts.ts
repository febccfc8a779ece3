import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import type { PostFilter } from "#shared/reader-pages.ts";
import { POSTS_PAGE_SIZE } from "#shared/reader-pages.ts";
import { pageOf } from "#shared/schemas/pagination.ts";
import { postSchema } from "#shared/schemas/posts.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

const postPageSchema = pageOf(postSchema);

export const getPosts = (filter: PostFilter, cursor: string | null) => {
  const params = new URLSearchParams({ limit: String(POSTS_PAGE_SIZE) });
  if (filter.category) params.set("category", filter.category);
  if (filter.author) params.set("author", filter.author);
  if (filter.q) params.set("q", filter.q);
  if (filter.following) params.set("following", "true");
  if (cursor) params.set("cursor", cursor);
  return api(`/api/posts?${params}`, postPageSchema);
};

export const postsQueryOptions = (filter: PostFilter) =>
  infiniteQueryOptions({
    queryKey: queryKeys.posts.list(filter),
    queryFn: ({ pageParam }) => getPosts(filter, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });

export const usePosts = (filter: PostFilter) => useInfiniteQuery(postsQueryOptions(filter));
