import crypto from "node:crypto";
import canonicalize from "canonicalize";
import { createPublicClient, type Hex, http, isAddressEqual, recoverTypedDataAddress } from "viem";
import { fromBase58 } from "../../src/shared/base58.ts";
import { type CanonicalRevision, revisionDigest, revisionTypedData } from "../../src/shared/provenance.ts";
import type { RevisionRecord, SiteProvenance } from "../../src/shared/schemas/provenance-file.ts";

// What `npm run verify-post` checks, from a post's provenance as the site's API answers it or as an archive keeps it
// (docs/provenance.md): each digest recomputed, the chain, the author's EIP-712 signature, the site's FEP-8b32 proof.

type Revision = RevisionRecord;

export type { SiteProvenance };

export interface Check {
  ok: boolean | "unchecked";
  line: string;
}

/** Known as ERC-6492's wrapper: a signature of an account not yet deployed, which only the chain can check. */
const ERC6492_SUFFIX = "6492649264926492649264926492649264926492649264926492649264926492";

const sha256 = (text: string) => crypto.createHash("sha256").update(text, "utf8").digest();
const jcs = (value: unknown) => {
  const text = canonicalize(value);
  if (text === undefined) throw new Error("not canonicalisable");
  return text;
};

/**
 * An eddsa-jcs-2022 proof (FEP-8b32, as Fedify makes it) over `document`, with node:crypto alone: the signature is
 * over SHA-256 of the JCS proof options (the document's `@context` with the proof's fields but its value), then
 * SHA-256 of the JCS document without its proof.
 */
export function verifyEddsaJcs(document: Record<string, unknown>, proof: Record<string, unknown>, x: string) {
  if (proof.cryptosuite !== "eddsa-jcs-2022" || proof.proofPurpose !== "assertionMethod") return false;
  const value = typeof proof.proofValue === "string" && proof.proofValue.startsWith("z") ? proof.proofValue : null;
  if (!value) return false;
  const options = {
    "@context": document["@context"],
    type: "DataIntegrityProof",
    cryptosuite: proof.cryptosuite,
    verificationMethod: proof.verificationMethod,
    proofPurpose: proof.proofPurpose,
    created: proof.created,
  };
  const { proof: _ignored, ...unsigned } = document;
  const key = crypto.createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x }, format: "jwk" });
  const signature = fromBase58(value.slice(1));
  const verifies = (candidate: unknown) => {
    try {
      return crypto.verify(null, Buffer.concat([sha256(jcs(options)), sha256(jcs(candidate))]), key, signature);
    } catch {
      return false;
    }
  };
  // As Fedify's own verifier does: the document as kept, else in the wire form Fedify signs outgoing objects in.
  return verifies(unsigned) || verifies(wireForm(unsigned));
}

const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";
const ADDRESSING = new Set(["to", "cc", "bto", "bcc", "audience"]);

/**
 * Fedify's outgoing normalisation of compact JSON-LD before it signs: the public audience's CURIE (`as:Public`,
 * `Public`) spelled as its full address, and a single `attachment` as an array.
 */
function wireForm(value: unknown, key = "", depth = 0): unknown {
  if (depth > 64) return value;
  if (ADDRESSING.has(key) && (value === "as:Public" || value === "Public")) return PUBLIC;
  if (Array.isArray(value)) return value.map((item) => wireForm(item, key, depth + 1));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    const next = name === "@context" ? inner : wireForm(inner, name, depth + 1);
    out[name] = name === "attachment" && next != null && !Array.isArray(next) ? [next] : next;
  }
  return out;
}

/** Whether the article the site signed is this revision: its address names the post, its title and body are the same. */
function articleIsRevision(document: Record<string, unknown>, canonical: CanonicalRevision) {
  const id = typeof document.id === "string" ? URL.parse(document.id) : null;
  return (
    id?.pathname === `/posts/${encodeURIComponent(canonical.post)}` &&
    document.name === canonical.title &&
    document.content === canonical.body
  );
}

/** The author's signature: recovered offline (an EOA); a contract account's is checked through `rpc` when given. */
async function authorCheck(bundle: SiteProvenance, revision: Revision, rpc: string | undefined): Promise<Check> {
  const at = `revision ${revision.revision}`;
  const author = revision.author;
  if (!author) return { ok: true, line: `${at}: not signed by its author (the site's word alone)` };
  const typed = revisionTypedData(bundle.chainId, { post: bundle.post, ...revision });
  const signature = author.signature as Hex;
  const signer = author.signer as Hex;
  if (rpc) {
    const client = createPublicClient({ transport: http(rpc) });
    const valid = await client.verifyTypedData({ address: signer, signature, ...typed }).catch(() => false);
    return valid
      ? { ok: true, line: `${at}: signed by ${signer} (EIP-712, checked through ${rpc})` }
      : { ok: false, line: `${at}: the author's signature does not verify for ${signer} (checked through ${rpc})` };
  }
  if (signature.toLowerCase().endsWith(ERC6492_SUFFIX))
    return {
      ok: "unchecked",
      line: `${at}: signed by the smart account ${signer}, not yet deployed (ERC-6492): only the chain can check it, pass --rpc URL`,
    };
  const recovered = await recoverTypedDataAddress({ ...typed, signature }).catch(() => null);
  if (recovered && isAddressEqual(recovered, signer))
    return { ok: true, line: `${at}: signed by ${signer} (EIP-712, recovered offline)` };
  return {
    ok: "unchecked",
    line: `${at}: the signature is not ${signer}'s as a plain wallet's: either it is forged or ${signer} is a smart account (ERC-1271), which only the chain can check: pass --rpc URL`,
  };
}

/** Every check of a post's revisions, in order, one line each. */
export async function checkPost(bundle: SiteProvenance, options: { rpc?: string } = {}): Promise<Check[]> {
  const checks: Check[] = [];
  if (bundle.revisions.length === 0) return [{ ok: false, line: `post ${bundle.post} has no revisions to check` }];
  let previous: string | null = null;
  for (const [index, revision] of bundle.revisions.entries()) {
    const at = `revision ${revision.revision}`;
    const canonical = revision.canonical as unknown as CanonicalRevision;
    const digest = await revisionDigest(canonical).catch(() => null);
    checks.push(
      digest === revision.digest
        ? { ok: true, line: `${at}: digest ${revision.digest} recomputed from its canonical object` }
        : { ok: false, line: `${at}: its canonical object hashes to ${digest}, not to the digest ${revision.digest}` },
    );
    const inPlace =
      revision.revision === index + 1 && canonical.revision === revision.revision && canonical.post === bundle.post;
    const chained = revision.previous === previous && canonical.previous === previous;
    checks.push(
      inPlace && chained
        ? { ok: true, line: `${at}: ${previous ? `follows revision ${index} (${previous})` : "is the first"}` }
        : {
            ok: false,
            line: `${at}: out of the chain (it should be number ${index + 1} of ${bundle.post}, after ${previous ?? "nothing"})`,
          },
    );
    previous = revision.digest;
    checks.push(await authorCheck(bundle, revision, options.rpc));
    checks.push(siteCheck(bundle, revision));
  }
  return checks;
}

function siteCheck(bundle: SiteProvenance, revision: Revision): Check {
  const at = `revision ${revision.revision}`;
  const { proof, document } = revision.site;
  const key = bundle.siteKey;
  if (!key) return { ok: false, line: `${at}: no key of the site's actor to check its proof with` };
  if (proof.verificationMethod !== key.id)
    return {
      ok: false,
      line: `${at}: the site's proof names the key ${String(proof.verificationMethod)}, not ${key.id}`,
    };
  if (!verifyEddsaJcs(document, proof, key.x))
    return { ok: false, line: `${at}: the site's proof (FEP-8b32, eddsa-jcs-2022) does not verify with ${key.id}` };
  if (!articleIsRevision(document, revision.canonical as unknown as CanonicalRevision))
    return { ok: false, line: `${at}: the article the site signed is not this revision (another post, title or body)` };
  return { ok: true, line: `${at}: the site's proof (FEP-8b32, eddsa-jcs-2022) verifies with ${key.id}` };
}
