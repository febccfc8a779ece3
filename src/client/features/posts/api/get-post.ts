import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PostDetail } from "../../../../shared/schemas/posts.ts";
import { api } from "../../../lib/api-client.ts";

export const getPost = (id: string) => api<PostDetail>(`/api/posts/${id}`);

export const postQueryOptions = (id: string) => queryOptions({ queryKey: ["post", id], queryFn: () => getPost(id) });

export const usePost = (id: string) => useQuery(postQueryOptions(id));
