import { z } from "../zod.ts";

// A post's revisions and their signatures (docs/provenance.md).

export const revisionParamsSchema = z.object({
  id: z.uuid("Invalid post id"),
  revision: z.coerce.number().check(z.int("revision must be a whole number"), z.gte(1), z.lte(1_000_000)),
});

/** An EOA's signature is 65 bytes; a smart account's (ERC-1271, ERC-6492) may be longer. */
export const revisionSignatureBodySchema = z.object({
  signature: z
    .string()
    .check(z.regex(/^0x([0-9a-fA-F]{2}){65,4096}$/, "signature must be 0x and at least 65 bytes of hex")),
});

export const revisionSignedSchema = z.object({ revision: z.int(), signer: z.string() });

const canonicalSchema = z.object({
  post: z.string(),
  revision: z.int(),
  title: z.string(),
  body: z.string(),
  category: z.string(),
  cover: z.nullable(z.string()),
  author: z.object({ id: z.string(), handle: z.string() }),
  publishedAt: z.string(),
  previous: z.nullable(z.string()),
});

const signatureSchema = z.object({ signature: z.string(), signer: z.string(), signedAt: z.string() });

export const provenanceSchema = z.object({
  post: z.string(),
  /** The post's title now, and its author. */
  title: z.string(),
  authorId: z.string(),
  /** The absolute address of the post's provenance page. */
  page: z.string(),
  /** The post as stored now, canonicalised now, is its latest revision, and the chain of revisions holds. */
  matches: z.boolean(),
  /** What differs between the post as stored and its latest revision, in a reader's words. */
  differs: z.array(z.string()),
  /** What is wrong with the stored revisions themselves. */
  problems: z.array(z.string()),
  latest: z.nullable(z.int()),
  /** The author's wallet that signed the latest revision; null if it is not signed (or no longer by their wallet). */
  signer: z.nullable(z.string()),
  /** The site's Ed25519 key its proofs are checked with (its actor publishes it as `id`). */
  siteKey: z.nullable(
    z.object({
      id: z.string(),
      publicKeyJwk: z.object({ kty: z.string(), crv: z.string(), x: z.string() }),
    }),
  ),
  revisions: z.array(
    z.object({
      revision: z.int(),
      digest: z.string(),
      previous: z.nullable(z.string()),
      publishedAt: z.string(),
      canonical: canonicalSchema,
      /** The author's signature, while it is still theirs. */
      author: z.nullable(signatureSchema),
      /** A signature by a wallet the author has unlinked since: it no longer counts as theirs. */
      withdrawn: z.nullable(signatureSchema),
      site: z.object({
        /** FEP-8b32 DataIntegrityProof (eddsa-jcs-2022) over `document`. */
        proof: z.record(z.string(), z.unknown()),
        keyId: z.string(),
        /** The ActivityPub Article the site signed (compact JSON-LD, without the proof). */
        document: z.record(z.string(), z.unknown()),
        /** The same document's proof by the author's actor's Ed25519 key (fediverse servers ask for it). */
        actorProof: z.record(z.string(), z.unknown()),
      }),
    }),
  ),
  /** For the post's author with a verified wallet: the EIP-712 typed data of the latest revision, while unsigned. */
  toSign: z.nullable(
    z.object({
      domain: z.object({ name: z.string(), version: z.string(), chainId: z.int() }),
      types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
      primaryType: z.literal("Revision"),
      message: z.object({ post: z.string(), revision: z.int(), digest: z.string(), previous: z.string() }),
    }),
  ),
});
export type PostProvenance = z.infer<typeof provenanceSchema>;

/** What a post and the lists say of its provenance: its latest revision and who signed it. */
export const postProvenanceSummarySchema = z.nullable(z.object({ revision: z.int(), signer: z.nullable(z.string()) }));
