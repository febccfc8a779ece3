import { queryOptions, useQuery } from "@tanstack/react-query";
import { useEffect, useLayoutEffect } from "react";
import { DEFAULT_SITE_SETTINGS, type SiteSettings, siteSettingsSchema } from "#shared/schemas/settings.ts";
import { api } from "./api-client.ts";
import { queryKeys } from "./query-keys.ts";

export const siteSettingsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.settings(),
    queryFn: () => api("/api/settings", siteSettingsSchema),
    staleTime: 5 * 60_000,
  });

/** The admin-chosen name and description, with the defaults until (or if) they load. */
export function useSiteSettings(): SiteSettings {
  return useQuery(siteSettingsQueryOptions()).data ?? DEFAULT_SITE_SETTINGS;
}

/**
 * The tab's title, as the server writes it into a rendered page's head: "Page | Site" for a page that names itself
 * (with this hook), the site's name otherwise (the layout's default, set on every navigation before pages name
 * themselves: layout effects run before effects).
 */
export function usePageTitle(page: string | undefined) {
  const { siteName } = useSiteSettings();
  useEffect(() => {
    if (page) document.title = `${page} | ${siteName}`;
  }, [page, siteName]);
}

export function useSiteTitle(pathname: string) {
  const { siteName } = useSiteSettings();
  useLayoutEffect(() => {
    if (pathname) document.title = siteName;
  }, [siteName, pathname]);
}
