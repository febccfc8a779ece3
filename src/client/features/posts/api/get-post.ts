import { queryOptions, useQuery } from "@tanstack/react-query";
import { postDetailSchema } from "#shared/schemas/posts.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

/** `counted`: the server-rendered page this refreshes has counted the view already. */
export const getPost = (id: string, { counted = false } = {}) =>
  api(`/api/posts/${id}${counted ? "?counted=1" : ""}`, postDetailSchema);

export const postQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.posts.detail(id), queryFn: () => getPost(id) });

export const usePost = (id: string) => useQuery(postQueryOptions(id));
