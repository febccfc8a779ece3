import { and, eq, gt, lt } from "drizzle-orm";
import { getAddress, verifyMessage } from "viem";
import { createSiweMessage, generateSiweNonce, parseSiweMessage, type SiweMessage } from "viem/siwe";
import type { SiweProof } from "#shared/schemas/siwe.ts";
import { siweNonces } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import type { Deps } from "../core/deps.ts";

const NONCE_TTL_MS = 10 * 60 * 1000;
const MAX_AGE_MS = 10 * 60 * 1000;
const CLOCK_SKEW_MS = 60 * 1000;

export async function createNonce(deps: Pick<Deps, "db">): Promise<string> {
  const now = new Date();
  await deps.db.delete(siweNonces).where(lt(siweNonces.expiresAt, now));
  const nonce = generateSiweNonce();
  await deps.db.insert(siweNonces).values({ nonce, expiresAt: new Date(now.getTime() + NONCE_TTL_MS) });
  return nonce;
}

/**
 * viem's parser is lenient: a line it cannot read becomes undefined or an Invalid Date, which would skip the checks
 * below. A message counts only if writing its fields back gives exactly the text that was signed, so every field,
 * dates and URI included, is well-formed and nothing was ignored.
 */
function parseStrict(message: string) {
  const fields = parseSiweMessage(message);
  let canonical: string | undefined;
  try {
    canonical = createSiweMessage(fields as SiweMessage);
  } catch {
    canonical = undefined;
  }
  if (canonical !== message || !fields.issuedAt) {
    throw new HttpError(400, "The sign-in message is not a valid Sign-In with Ethereum message. Please sign again.");
  }
  return fields;
}

/**
 * Checks an EIP-4361 message completely (viem checks some fields only when asked): our domain and origin, our
 * chain, its age and expiry, the signature, and a single-use nonce we issued. Returns the checksummed signer.
 * The nonce is claimed through `deps.db`: inside a transaction, a failure after this leaves it usable.
 */
export async function verifySiwe(deps: Pick<Deps, "db" | "config">, proof: SiweProof): Promise<`0x${string}`> {
  const fields = parseStrict(proof.message);
  const site = new URL(deps.config.publicUrl);
  const now = Date.now();
  if (!fields.address || !fields.nonce || !fields.uri || !fields.issuedAt || fields.version !== "1") {
    throw new HttpError(400, "The sign-in message is incomplete. Please sign again.");
  }
  if (fields.domain !== site.host || new URL(fields.uri).origin !== site.origin) {
    throw new HttpError(400, `The sign-in message is for another site. Sign in at ${site.origin}.`);
  }
  if (fields.chainId !== deps.config.chain.id) {
    throw new HttpError(400, `Sign in on ${deps.config.chain.name} (chain id ${deps.config.chain.id}).`);
  }
  const issuedAt = fields.issuedAt.getTime();
  if (
    issuedAt > now + CLOCK_SKEW_MS ||
    issuedAt < now - MAX_AGE_MS ||
    (fields.expirationTime && fields.expirationTime.getTime() <= now)
  ) {
    throw new HttpError(400, "The sign-in message has expired. Please sign again.");
  }
  if (fields.notBefore && fields.notBefore.getTime() > now + CLOCK_SKEW_MS) {
    throw new HttpError(400, "The sign-in message is not valid yet.");
  }
  const signature = proof.signature as `0x${string}`;
  const valid = await verifyMessage({ address: fields.address, message: proof.message, signature }).catch(() => false);
  if (!valid) throw new HttpError(401, "The signature does not match the wallet in the message.");

  const [used] = await deps.db
    .delete(siweNonces)
    .where(and(eq(siweNonces.nonce, fields.nonce), gt(siweNonces.expiresAt, new Date())))
    .returning();
  if (!used) throw new HttpError(400, "This sign-in request has expired or was already used. Please sign again.");
  return getAddress(fields.address);
}
