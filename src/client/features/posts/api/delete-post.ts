import { useMutation, useQueryClient } from "@tanstack/react-query";
import { postSchema } from "#shared/schemas/posts.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

export const deletePost = (id: string) => api(`/api/posts/${id}`, postSchema, { method: "DELETE" });

export function useDeletePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePost,
    onSuccess: (post) => {
      queryClient.removeQueries({ queryKey: queryKeys.posts.detail(post.id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.posts.all() });
    },
  });
}
