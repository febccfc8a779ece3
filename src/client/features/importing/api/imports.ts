import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { importStateSchema } from "#shared/schemas/imports.ts";
import { z } from "#shared/zod.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

const latestSchema = z.object({ import: z.nullable(importStateSchema) });
const isUnderWay = (status: string | undefined) => status === "queued" || status === "running";

/** The user's latest import, followed every second while it runs (the progress bar). */
export const useLatestImport = () =>
  useQuery({
    queryKey: queryKeys.imports.latest(),
    queryFn: () => api("/api/imports/latest", latestSchema),
    refetchInterval: (query) => (isUnderWay(query.state.data?.import?.status) ? 1000 : false),
  });

/** The form as it is sent: the archive and the importer's choices, as multipart, its upload's progress told. */
export function useStartImport(onUploadProgress: (sent: number, total: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) =>
      api("/api/imports", importStateSchema, { method: "POST", body: form, onUploadProgress }),
    onSuccess: (started) => queryClient.setQueryData(queryKeys.imports.latest(), { import: started }),
  });
}

export function useCancelImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(`/api/imports/${id}`, importStateSchema, { method: "DELETE" }),
    onSuccess: (state) => queryClient.setQueryData(queryKeys.imports.latest(), { import: state }),
  });
}
