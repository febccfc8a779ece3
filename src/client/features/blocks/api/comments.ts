import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { commentSchema, commentSettingsSchema } from "#shared/schemas/comments.ts";
import { pageOf } from "#shared/schemas/pagination.ts";
import { z } from "#shared/zod.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

export const useCommentSettings = () =>
  useQuery({
    queryKey: queryKeys.blocks.commentSettings(),
    queryFn: () => api("/api/comments/settings", commentSettingsSchema),
  });

export function useSetCommentSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (holdFirstComments: boolean) =>
      api("/api/comments/settings", commentSettingsSchema, { method: "PUT", body: { holdFirstComments } }),
    onSuccess: (settings) => queryClient.setQueryData(queryKeys.blocks.commentSettings(), settings),
  });
}

/** First-time commenters' comments on the signed-in author's post, waiting for them. */
export const useWaitingComments = (postId: string) =>
  useQuery({
    queryKey: queryKeys.blocks.waiting(postId),
    queryFn: () => api(`/api/comments/waiting?postId=${encodeURIComponent(postId)}`, pageOf(commentSchema)),
  });

export function useDecideWaitingComment(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, approve }: { id: string; approve: boolean }) =>
      api(`/api/comments/${id}/${approve ? "approve" : "decline"}`, z.object({ approved: z.boolean() }), {
        method: "POST",
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.blocks.waiting(postId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.posts.detail(postId) });
    },
  });
}
