import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Post } from "../../../../shared/schemas/posts.ts";
import { api } from "../../../lib/api-client.ts";

export const reactToPost = ({ postId, kind }: { postId: string; kind: "likes" | "dislikes" }) =>
  api<Post>(`/api/posts/${kind}`, { method: "PUT", body: { postId } });

/** The spec reloads the list (and the post) after a like or dislike. */
export function useReactToPost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reactToPost,
    onSuccess: (post) => {
      void queryClient.invalidateQueries({ queryKey: ["posts"] });
      void queryClient.invalidateQueries({ queryKey: ["post", post.id] });
    },
  });
}
