import { queryOptions, useQuery } from "@tanstack/react-query";
import { postDetailSchema } from "../../../../shared/schemas/posts.ts";
import { api } from "../../../lib/api-client.ts";
import { postKeys } from "./keys.ts";

export const getPost = (id: string) => api(`/api/posts/${id}`, postDetailSchema);

export const postQueryOptions = (id: string) =>
  queryOptions({ queryKey: postKeys.detail(id), queryFn: () => getPost(id) });

export const usePost = (id: string) => useQuery(postQueryOptions(id));
