import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type SiteSettings, siteSettingsSchema, systemStatusSchema } from "#shared/schemas/settings.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

/** Saves the site's name and description; every page's title follows at once. */
export function useSaveSiteSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SiteSettings) => api("/api/settings", siteSettingsSchema, { method: "PUT", body: input }),
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.settings(), saved),
  });
}

export const useSystemStatus = () =>
  useQuery({ queryKey: queryKeys.systemStatus(), queryFn: () => api("/api/settings/status", systemStatusSchema) });
