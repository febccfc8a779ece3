import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Post } from "../../../../shared/schemas/posts.ts";
import { api } from "../../../lib/api-client.ts";

export const deletePost = (id: string) => api<Post>(`/api/posts/${id}`, { method: "DELETE" });

export function useDeletePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePost,
    onSuccess: (post) => {
      queryClient.removeQueries({ queryKey: ["post", post.id] });
      void queryClient.invalidateQueries({ queryKey: ["posts"] });
    },
  });
}
