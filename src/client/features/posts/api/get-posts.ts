import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import type { Post } from "../../../../shared/schemas/posts.ts";
import { api } from "../../../lib/api-client.ts";

interface PostPage {
  items: Post[];
  nextCursor: string | null;
}

export const getPosts = (filter: { category?: string; author?: string }, cursor: string | null) => {
  const params = new URLSearchParams({ limit: "12" });
  if (filter.category) params.set("category", filter.category);
  if (filter.author) params.set("author", filter.author);
  if (cursor) params.set("cursor", cursor);
  return api<PostPage>(`/api/posts?${params}`);
};

export const postsQueryOptions = (filter: { category?: string; author?: string }) =>
  infiniteQueryOptions({
    queryKey: ["posts", filter],
    queryFn: ({ pageParam }) => getPosts(filter, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });

export const usePosts = (filter: { category?: string; author?: string }) => useInfiniteQuery(postsQueryOptions(filter));
