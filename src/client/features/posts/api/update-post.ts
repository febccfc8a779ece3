import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type PostUpdate, postSchema } from "#shared/schemas/posts.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

/**
 * The spec sends the whole form object with the id (docs/specification.md §Entities); the server changes title,
 * description and category.
 */
export const updatePost = ({ id, ...input }: PostUpdate & { id: string }) =>
  api(`/api/posts/${id}`, postSchema, { method: "PUT", body: { id, ...input } });

export function useUpdatePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePost,
    onSuccess: (post) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.posts.all() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.posts.detail(post.id) });
    },
  });
}
