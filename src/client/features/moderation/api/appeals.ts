import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { appealDecisionSchema, appealsSchema, decisionSchema, decisionsSchema } from "#shared/schemas/moderation.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

export const useMyDecisions = () =>
  useQuery({ queryKey: queryKeys.moderation.decisions(), queryFn: () => api("/api/moderation/mine", decisionsSchema) });

export function useAppeal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { actionId: string; text: string }) =>
      api("/api/appeals", decisionSchema, { method: "POST", body: input }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.moderation.decisions() }),
  });
}

/** A decision reached by the link in its mail (a suspended account cannot sign in to see its decisions). */
export const useDecisionByLink = (actionId: string, token: string) =>
  useQuery({
    queryKey: queryKeys.moderation.byLink(actionId),
    queryFn: () => api(`/api/appeals/by-link/${actionId}/${token}`, decisionSchema),
    retry: false,
  });

export function useAppealByLink(actionId: string, token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { actionId: string; text: string }) =>
      api("/api/appeals/by-link", decisionSchema, { method: "POST", body: { ...input, token } }),
    onSuccess: (decision) => queryClient.setQueryData(queryKeys.moderation.byLink(actionId), decision),
  });
}

export const useWaitingAppeals = () =>
  useQuery({ queryKey: queryKeys.moderation.appeals(), queryFn: () => api("/api/moderation/appeals", appealsSchema) });

export function useDecideAppeal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, outcome }: { id: string; outcome: "upheld" | "reversed" }) =>
      api(`/api/moderation/appeals/${id}`, appealDecisionSchema, { method: "POST", body: { outcome } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.moderation.all() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.posts.all() });
    },
  });
}
