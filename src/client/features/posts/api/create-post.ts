import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type PostStatus, postSchema } from "../../../../shared/schemas/posts.ts";
import { api } from "../../../lib/api-client.ts";
import { postKeys } from "./keys.ts";

export interface PostDraft {
  title: string;
  description: string;
  category: string;
  isFeatured: "true" | "false";
  transectionHash?: string | undefined;
  image?: File | undefined;
  /** Publish now (the default), keep as a draft, or publish at `publishAt` (an ISO instant). */
  status?: PostStatus | undefined;
  publishAt?: string | undefined;
}

/** Multipart, as the spec's Create Blog sends it. */
export function createPost(draft: PostDraft) {
  const form = new FormData();
  form.set("title", draft.title);
  form.set("description", draft.description);
  form.set("category", draft.category);
  form.set("isFeatured", draft.isFeatured);
  if (draft.isFeatured === "true" && draft.transectionHash) form.set("transectionHash", draft.transectionHash);
  if (draft.image) form.set("image", draft.image);
  if (draft.status) form.set("status", draft.status);
  if (draft.status === "scheduled" && draft.publishAt) form.set("publishAt", draft.publishAt);
  return api("/api/posts", postSchema, { method: "POST", body: form });
}

export function useCreatePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPost,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: postKeys.lists() }),
  });
}
