import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type CreateTokenInput, createdTokenSchema, tokenListSchema, tokenSchema } from "#shared/schemas/tokens.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

export const useTokens = () =>
  useQuery({ queryKey: queryKeys.tokens.all(), queryFn: () => api("/api/tokens", tokenListSchema) });

/** Makes a token; its secret is in the answer only, so the screen holds it until it is dismissed. */
export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateTokenInput) => api("/api/tokens", createdTokenSchema, { method: "POST", body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.tokens.all() }),
  });
}

export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(`/api/tokens/${encodeURIComponent(id)}`, tokenSchema, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.tokens.all() }),
  });
}
