import { fromBase58 } from "../../src/shared/base58.ts";
import type { LogExport } from "../../src/shared/schemas/moderation.ts";

/** The multicodec prefix of an Ed25519 public key in a Multikey's `publicKeyMultibase` (FEP-521a). */
const ED25519_PREFIX = [0xed, 0x01];

/** The Ed25519 key a `publicKeyMultibase` names, as a JWK's `x` (base64url), or null for any other key. */
export function multikeyX(multibase: unknown) {
  if (typeof multibase !== "string" || !multibase.startsWith("z") || multibase.length > 100) return null;
  const bytes = fromBase58(multibase.slice(1));
  if (bytes.length !== 34 || bytes[0] !== ED25519_PREFIX[0] || bytes[1] !== ED25519_PREFIX[1]) return null;
  return Buffer.from(bytes.subarray(2)).toString("base64url");
}

/** The Ed25519 key the site's own actor publishes (its `assertionMethod`), read from the site itself. */
export async function publishedKey(site: string) {
  const actor = new URL("/ap/actors/site", site);
  const response = await fetch(actor, { headers: { accept: "application/activity+json" }, redirect: "error" });
  if (!response.ok) throw new Error(`${actor} answered ${response.status}: the site publishes no actor key`);
  const document = (await response.json()) as { assertionMethod?: unknown };
  const methods = [document.assertionMethod].flat() as { publicKeyMultibase?: unknown }[];
  const keys = methods.flatMap((method) => multikeyX(method?.publicKeyMultibase) ?? []);
  if (keys.length !== 1) throw new Error(`${actor} publishes ${keys.length} Ed25519 keys, not one`);
  return keys[0] as string;
}

/** What keeps `saved` (an export kept before) from being the start of `log`: another key, an entry gone or changed. */
export function prefixProblems(saved: LogExport, log: LogExport) {
  if (saved.publicKey.x !== log.publicKey.x) return ["the log is signed with another key than the saved export"];
  if (saved.entries.length > log.entries.length)
    return [`the log has ${log.entries.length} entries, fewer than the ${saved.entries.length} saved: some are gone`];
  return saved.entries.flatMap((entry, index) =>
    log.entries[index]?.hash === entry.hash && log.entries[index]?.seq === entry.seq
      ? []
      : [`entry ${entry.seq} is not the one saved: the log was rewritten`],
  );
}
