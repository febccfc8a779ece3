import crypto from "node:crypto";
import Bowser from "bowser";
import { isbot } from "isbot";
import type { Device } from "#shared/schemas/stats.ts";

/** What a read of a post or a profile is recorded with: no address, no user agent, nothing that names a person. */
export interface Read {
  kind: "post" | "profile";
  targetId: string;
  /** The referrer's domain; '' for none or the site itself. */
  source: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  device: Device;
  /** A hash of the address and the user agent under the day's salt. */
  visitor: string;
  at: Date;
}

/** What the request told: where the reader came from and the page's address (for its UTM parameters). */
export interface ReadRequest {
  kind: "post" | "profile";
  targetId: string;
  referrer: string | undefined;
  /** The page's address or its path and query. */
  url: string;
  userAgent: string | undefined;
  address: string;
  /** The site's own host (a referrer from it is no source). */
  host: string | undefined;
  /** `DNT: 1` or `Sec-GPC: 1`: the reader asked not to be tracked. */
  optedOut: boolean;
}

/** Longest value kept of a source or a UTM parameter: enough for any real one, and a 10 KB one is cut. */
export const VALUE_MAX = 100;

/** User agents seen lately and their class: a reader's every page would otherwise be parsed again. */
const deviceCache = new Map<string, Device | "bot">();
const DEVICE_CACHE_MAX = 1000;

/** The device class from the user agent (Bowser), or `bot` for crawlers and scripts (isbot's maintained list). */
export function deviceOf(userAgent: string | undefined): Device | "bot" {
  const agent = (userAgent ?? "").slice(0, 512);
  const known = deviceCache.get(agent);
  if (known) return known;
  let device: Device | "bot" = "desktop";
  if (agent === "" || isbot(agent)) device = "bot";
  else {
    const type = Bowser.getParser(agent).getPlatformType(true);
    if (type === "mobile") device = "phone";
    else if (type === "tablet") device = "tablet";
    else if (type === "bot") device = "bot";
  }
  if (deviceCache.size >= DEVICE_CACHE_MAX) deviceCache.delete(deviceCache.keys().next().value as string);
  deviceCache.set(agent, device);
  return device;
}

/** A value as it is kept: printable characters only (no CR/LF, no controls), trimmed, cut. */
export function cleanValue(value: string | null | undefined): string {
  if (!value) return "";
  const printable = [...value.slice(0, 4 * VALUE_MAX)].filter((character) => {
    const code = character.codePointAt(0) ?? 0;
    return code > 0x1f && (code < 0x7f || code > 0x9f) && code !== 0x2028 && code !== 0x2029;
  });
  return printable.join("").trim().slice(0, VALUE_MAX);
}

/** The referrer's domain (`www.` dropped), '' for none, the site itself, or anything but an http(s) address. */
export function sourceOf(referrer: string | undefined, host: string | undefined): string {
  if (!referrer) return "";
  let url: URL;
  try {
    url = new URL(referrer.slice(0, 2048));
  } catch {
    return "";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "";
  const domain = url.hostname.toLowerCase().replace(/^www\./, "");
  const own = host
    ?.toLowerCase()
    .replace(/:\d+$/, "")
    .replace(/^www\./, "");
  if (!domain || domain === own) return "";
  return /^[a-z0-9.:[\]-]+$/.test(domain) ? domain.slice(0, VALUE_MAX) : "";
}

const NO_UTM = { utmSource: "", utmMedium: "", utmCampaign: "" };

/** The page's `utm_source`, `utm_medium` and `utm_campaign`. */
export function utmOf(url: string) {
  const query = url.indexOf("?");
  if (query < 0 || !url.includes("utm_", query)) return NO_UTM;
  const params = new URLSearchParams(query >= 0 ? url.slice(query + 1, query + 4096) : "");
  return {
    utmSource: cleanValue(params.get("utm_source")).toLowerCase(),
    utmMedium: cleanValue(params.get("utm_medium")).toLowerCase(),
    utmCampaign: cleanValue(params.get("utm_campaign")),
  };
}

/** A time's period (a UTC day, an hour) as a string, made once a period: every read asks for its day and hour. */
export function perPeriod(periodMs: number, name: (start: Date) => string) {
  let last = { start: Number.NaN, name: "" };
  return (at: Date) => {
    const start = Math.floor(at.getTime() / periodMs) * periodMs;
    if (start !== last.start) last = { start, name: name(new Date(start)) };
    return last.name;
  };
}

/** The UTC day of a time, `YYYY-MM-DD`. */
export const dayOf = perPeriod(86_400_000, (start) => start.toISOString().slice(0, 10));

/**
 * The day's salt, made from the secret and the day and never stored: every instance makes the same one, and once the
 * day's visitor rows are gone (services/stats/recorder.ts) nothing links a hash to a person or to another day.
 */
function saltOf(secret: string, day: string) {
  return crypto.createHmac("sha256", secret).update(`penchain:stats:${day}`).digest("base64url");
}
let salt: { secret: string; day: string; value: string } | undefined;

/** A reader of the day: SHA-256 of the day's salt, the address and the user agent (one hash, on every read). */
export function visitorOf(secret: string, at: Date, address: string, userAgent: string | undefined) {
  const day = dayOf(at);
  if (salt?.day !== day || salt.secret !== secret) salt = { secret, day, value: saltOf(secret, day) };
  return crypto.hash("sha256", `${salt.value}\n${address}\n${userAgent ?? ""}`, "base64url").slice(0, 22);
}

/** The read to record, or null when it must not be: the reader opted out, or is a bot. */
export function readOf(secret: string, request: ReadRequest, at = new Date()): Read | null {
  if (request.optedOut) return null;
  const device = deviceOf(request.userAgent);
  if (device === "bot") return null;
  return {
    kind: request.kind,
    targetId: request.targetId,
    source: sourceOf(request.referrer, request.host),
    ...utmOf(request.url),
    device,
    visitor: visitorOf(secret, at, request.address, request.userAgent),
    at,
  };
}
