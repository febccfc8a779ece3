import { AsyncLocalStorage } from "node:async_hooks";
import dns from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import type { Agent, request as undiciRequest } from "undici";

/**
 * Deliveries go to addresses remote servers gave us (a follower's inbox), so they must not reach this machine or
 * its network: an inbox is https on a public address (http and private addresses only where the site federates on
 * a local address, for tests), the connection goes to the address that was checked (no second DNS answer can slip
 * in between), and a redirect is not followed.
 */

/** A public unicast address (not private, loopback, link-local, multicast, reserved…). */
export function isPublicAddress(address: string): boolean {
  return ipaddr.isValid(address) && ipaddr.process(address).range() === "unicast";
}

export class PrivateAddressError extends Error {
  readonly code = "EPRIVATEADDRESS";
}

/** dns.lookup, refusing a name any of whose addresses is not public; the socket connects to what it answers. */
const publicLookup = ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error);
    const first = addresses[0];
    if (!first || addresses.some((entry) => !isPublicAddress(entry.address)))
      return callback(new PrivateAddressError(`${hostname} resolves to an address deliveries may not reach`));
    if (options.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  });
}) as unknown as LookupFunction;

let loaded: Promise<{ publicOnly: Agent; anyAddress: Agent; request: typeof undiciRequest }> | undefined;
/**
 * `publicOnly` connects only to public addresses, checked as it connects (an import's image fetches use it too);
 * `anyAddress` anywhere, only where a site on a private address may send to one (a laptop, the tests). undici's
 * megabyte of modules loads with the first delivery or fetch, not with the server.
 */
export const agents = () => {
  loaded ??= import("undici").then(({ Agent, request }) => ({
    publicOnly: new Agent({ connect: { lookup: publicLookup } }),
    anyAddress: new Agent(),
    request,
  }));
  return loaded;
};

type RequestOptions = Omit<NonNullable<Parameters<typeof undiciRequest>[1]>, "dispatcher">;

/**
 * A request of one's own to `url` (undici's `request`, which follows no redirect), once `checkInbox` has let the
 * address through, over connections that check it again: a cheaper way than `guardedDelivery` around `fetch`.
 */
export async function guardedRequest(url: string, allowPrivate: boolean, options: RequestOptions) {
  checkInbox(url, allowPrivate);
  const { anyAddress, publicOnly, request } = await agents();
  return request(url, { ...options, dispatcher: allowPrivate ? anyAddress : publicOnly });
}

/** The inbox of the delivery under way in this async context. */
const deliveries = new AsyncLocalStorage<{ inbox: string; allowPrivate: boolean }>();

/** Throws when `inbox` is no address a delivery may go to, before any connection. */
export function checkInbox(inbox: string, allowPrivate: boolean) {
  const url = URL.parse(inbox);
  if (!url || !(url.protocol === "https:" || (allowPrivate && url.protocol === "http:")))
    throw new PrivateAddressError(`${inbox} is not an https address`);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host))
    throw new PrivateAddressError(`${inbox} is not a public address`);
}

let installed = false;
/** Inside a delivery, every fetch must be to its inbox (so no redirect is followed) and through `publicOnly`. */
function guardFetch() {
  if (installed) return;
  installed = true;
  const plain = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const delivery = deliveries.getStore();
    if (!delivery) return plain(input, init);
    const url = input instanceof Request ? input.url : String(input);
    if (url !== delivery.inbox)
      return Promise.reject(new PrivateAddressError(`${delivery.inbox} redirected; deliveries follow no redirect`));
    if (delivery.allowPrivate) return plain(input, { ...init, redirect: "manual" });
    return agents().then(({ publicOnly }) =>
      plain(input, { ...init, redirect: "manual", dispatcher: publicOnly } as RequestInit),
    );
  };
}

/** Runs one delivery (Fedify's handling of an outbox message) under the rules above. */
export async function guardedDelivery<T>(inbox: string, allowPrivate: boolean, deliver: () => Promise<T>) {
  checkInbox(inbox, allowPrivate);
  guardFetch();
  return deliveries.run({ inbox: new URL(inbox).href, allowPrivate }, deliver);
}

/** Whether a follower's inbox may be kept: an address deliveries may go to, on the follower's own host. */
export function isFollowerInbox(inbox: string, actorUri: string, allowPrivate: boolean): boolean {
  try {
    checkInbox(inbox, allowPrivate);
  } catch {
    return false;
  }
  return new URL(inbox).host === new URL(actorUri).host;
}
