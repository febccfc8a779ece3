import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { dataExportSchema } from "#shared/schemas/leaving.ts";
import { z } from "#shared/zod.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

const latestSchema = z.object({ export: z.nullable(dataExportSchema) });

/** The user's latest archive, followed every 2 seconds while it is being prepared. */
export const useLatestExport = () =>
  useQuery({
    queryKey: queryKeys.exports.latest(),
    queryFn: () => api("/api/exports/latest", latestSchema),
    refetchInterval: (query) => {
      const status = query.state.data?.export?.status;
      return status === "queued" || status === "running" ? 2000 : false;
    },
  });

export function useRequestExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api("/api/exports", dataExportSchema, { method: "POST" }),
    onSuccess: (started) => queryClient.setQueryData(queryKeys.exports.latest(), { export: started }),
  });
}
