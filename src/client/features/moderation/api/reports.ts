import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ReportInput, reportSchema } from "#shared/schemas/moderation.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

export function useFileReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReportInput) => api("/api/reports", reportSchema, { method: "POST", body: input }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.moderation.mine() }),
  });
}
