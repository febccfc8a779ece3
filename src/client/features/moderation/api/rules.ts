import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type RulesInput, rulesSchema } from "#shared/schemas/moderation.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

export const useRules = () =>
  useQuery({ queryKey: queryKeys.moderation.rules(), queryFn: () => api("/api/rules", rulesSchema) });

/** The admin's new list of rules; answers the list as it is now. */
export function useReplaceRules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RulesInput) => api("/api/rules", rulesSchema, { method: "PUT", body: input }),
    onSuccess: (rules) => queryClient.setQueryData(queryKeys.moderation.rules(), rules),
  });
}
