import { useMutation, useQueryClient } from "@tanstack/react-query";
import { postSchema } from "#shared/schemas/posts.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

export const reactToPost = ({ postId, kind }: { postId: string; kind: "likes" | "dislikes" }) =>
  api(`/api/posts/${kind}`, postSchema, { method: "PUT", body: { postId } });

/** The list (and the post) reload after a like or dislike (docs/specification.md §States and transitions). */
export function useReactToPost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reactToPost,
    onSuccess: (post) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.posts.lists() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.posts.detail(post.id) });
    },
  });
}
