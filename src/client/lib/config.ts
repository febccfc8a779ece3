import { queryOptions, useQuery } from "@tanstack/react-query";
import { publicConfigSchema } from "#shared/schemas/system.ts";
import { api } from "./api-client.ts";
import { queryKeys } from "./query-keys.ts";

/** Chain, fee contract and fee from the server, so the UI never hard-codes them. */
export const configQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.config(),
    queryFn: () => api("/api/config", publicConfigSchema),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const usePublicConfig = () => useQuery(configQueryOptions());
