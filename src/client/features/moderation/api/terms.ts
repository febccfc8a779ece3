import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FilterTermsInput, filterTermsSchema } from "#shared/schemas/moderation.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

export const useFilterTerms = () =>
  useQuery({ queryKey: queryKeys.moderation.terms(), queryFn: () => api("/api/moderation/terms", filterTermsSchema) });

export function useReplaceFilterTerms() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: FilterTermsInput) =>
      api("/api/moderation/terms", filterTermsSchema, { method: "PUT", body: input }),
    onSuccess: (terms) => queryClient.setQueryData(queryKeys.moderation.terms(), terms),
  });
}
