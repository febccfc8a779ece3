import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { pendingRepliesSchema, postFediverseSchema, remoteReplySchema } from "#shared/schemas/federation.ts";
import { messageSchema } from "#shared/schemas/users.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

export const postFediverseQueryOptions = (postId: string) =>
  queryOptions({
    queryKey: queryKeys.federation.post(postId),
    queryFn: () => api(`/api/federation/posts/${postId}`, postFediverseSchema),
  });

/** A post's replies, likes and boosts from the fediverse. */
export const usePostFediverse = (postId: string) => useQuery(postFediverseQueryOptions(postId));

/** Replies waiting for the signed-in author's approval. */
export const usePendingReplies = () =>
  useQuery({
    queryKey: queryKeys.federation.pending(),
    queryFn: () => api("/api/federation/replies/pending", pendingRepliesSchema),
  });

/** Approve or remove a reply; every federation answer shown is read again. */
export function useReplyDecision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, decision }: { id: string; decision: "approve" | "remove" }): Promise<void> => {
      if (decision === "approve")
        await api(`/api/federation/replies/${id}/approve`, remoteReplySchema, { method: "PUT" });
      else await api(`/api/federation/replies/${id}`, messageSchema, { method: "DELETE" });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.federation.all() }),
  });
}
