import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type createPostBodySchema, postSchema } from "#shared/schemas/posts.ts";
import type { z } from "#shared/zod.ts";
import { api } from "../../../lib/api-client.ts";
import { toFormData } from "../../../lib/form-data.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

/** What Create Blog sends: the shared body's fields as the form parsed them, and the cover apart. */
export type NewPost = Omit<z.input<typeof createPostBodySchema>, "image"> & { image?: File | undefined };

/** Multipart, as the spec's Create Blog sends it (docs/specification.md §Calls). */
export function createPost({ image, ...values }: NewPost) {
  return api("/api/posts", postSchema, { method: "POST", body: toFormData(values, { image }) });
}

export function useCreatePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPost,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.posts.all() }),
  });
}
