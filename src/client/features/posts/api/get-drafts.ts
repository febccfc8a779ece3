import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { pageOf } from "#shared/schemas/pagination.ts";
import { postSchema } from "#shared/schemas/posts.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

const postPageSchema = pageOf(postSchema);

/** The signed-in author's drafts and scheduled posts, last edited first. */
export const getDrafts = (cursor: string | null) =>
  api(`/api/posts/drafts?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, postPageSchema);

export const draftsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: queryKeys.posts.drafts(),
    queryFn: ({ pageParam }) => getDrafts(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });

export const useDrafts = () => useInfiniteQuery(draftsQueryOptions());
