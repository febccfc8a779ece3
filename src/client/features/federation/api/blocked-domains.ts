import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { blockedDomainsSchema } from "#shared/schemas/federation.ts";
import { blocklistResultSchema } from "#shared/schemas/moderation.ts";
import { api, apiText } from "../../../lib/api-client.ts";
import { saveFile } from "../../../lib/download.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

export const useBlockedDomains = () =>
  useQuery({
    queryKey: queryKeys.federation.blockedDomains(),
    queryFn: () => api("/api/federation/blocked-domains", blockedDomainsSchema),
  });

/** Block or unblock a domain; answers the list as it is now. */
export function useDomainBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ domain, blocked }: { domain: string; blocked: boolean }) =>
      blocked
        ? api("/api/federation/blocked-domains", blockedDomainsSchema, { method: "POST", body: { domain } })
        : api(`/api/federation/blocked-domains/${encodeURIComponent(domain)}`, blockedDomainsSchema, {
            method: "DELETE",
          }),
    onSuccess: (domains) => {
      queryClient.setQueryData(queryKeys.federation.blockedDomains(), domains);
      void queryClient.invalidateQueries({ queryKey: queryKeys.federation.all() });
    },
  });
}

/** Imports a shared block list (Mastodon's CSV); answers what it blocked and what it skipped. */
export function useImportBlocklist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (csv: string) =>
      api("/api/moderation/domain-blocks", blocklistResultSchema, {
        method: "POST",
        raw: { type: "text/csv", text: csv },
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.federation.all() }),
  });
}

/** Saves the site's block list as a CSV file, as the browser downloads one. */
export async function downloadBlocklist() {
  saveFile("domain-blocks.csv", await apiText("/api/moderation/domain-blocks.csv"));
}
