import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { blockedDomainsSchema } from "#shared/schemas/federation.ts";
import { api } from "../../../lib/api-client.ts";
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
