import { normalHost } from "./domains.ts";

/**
 * The domain a host's owner registered, by the Public Suffix List's ICANN part (`evil.example` for
 * `a.b.evil.example`, `bar.co.uk` for `foo.bar.co.uk`), so one owner's hosts count as one; an address, or a name
 * with no registered domain, stands for itself. Hosts on a platform that gives out free subdomains (its private
 * entries in the list) count as the platform: otherwise anyone could be a thousand domains. The list (tldts) loads
 * with the first report from another server, the one thing that needs it.
 */
export async function registrableDomain(hostname: string) {
  const { getDomain } = await import("tldts");
  const host = normalHost(hostname);
  return getDomain(host, { allowPrivateDomains: false }) ?? host;
}
