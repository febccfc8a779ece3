import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Post, PostUpdate } from "../../../../shared/schemas/posts.ts";
import { api } from "../../../lib/api-client.ts";

/** The spec sends the whole form object with the id; the server changes title, description and category. */
export const updatePost = ({ id, ...input }: PostUpdate & { id: string }) =>
  api<Post>(`/api/posts/${id}`, { method: "PUT", body: { id, ...input } });

export function useUpdatePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePost,
    onSuccess: (post) => {
      void queryClient.invalidateQueries({ queryKey: ["posts"] });
      void queryClient.invalidateQueries({ queryKey: ["post", post.id] });
    },
  });
}
