import { queryOptions, useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { type SiteSettings, siteSettingsSchema } from "../../shared/schemas/settings.ts";
import { api } from "./api-client.ts";

const DEFAULTS: SiteSettings = { siteName: "Penchain", siteDescription: "A blog made with blockchain." };

export const siteSettingsQueryOptions = () =>
  queryOptions({
    queryKey: ["settings"],
    queryFn: () => api("/api/settings", siteSettingsSchema),
    staleTime: 5 * 60_000,
  });

/** The admin-chosen name and description, with the defaults until (or if) they load. */
export function useSiteSettings(): SiteSettings {
  const settings = useQuery(siteSettingsQueryOptions()).data ?? DEFAULTS;
  useEffect(() => {
    document.title = settings.siteName;
  }, [settings.siteName]);
  return settings;
}
