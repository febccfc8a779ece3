import { z } from "../zod.ts";

// A post's provenance as *Download my data* keeps it (`posts/<name>/provenance.json`), an import carries it along and
// `npm run verify-post` checks it offline (docs/provenance.md): every revision with its signatures, the chain id the
// author signed for, and the site actor's public key the site's proofs verify with.

export const PROVENANCE_FORMAT = "penchain-provenance/1";
/** The most an archive's file may hold, read before it is parsed. */
export const PROVENANCE_FILE_MAX_BYTES = 4 * 1024 * 1024;
/** The deepest a file's objects and arrays may nest: a real one nests a few levels, a hostile one overflows stacks. */
export const PROVENANCE_FILE_MAX_DEPTH = 32;

/** How deeply a JSON text nests its objects and arrays (their brackets in strings not counted), without parsing it. */
export function jsonDepth(text: string) {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (inString) {
      if (char === "\\") at++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{" || char === "[") deepest = Math.max(deepest, ++depth);
    else if (char === "}" || char === "]") depth--;
  }
  return deepest;
}

const hex64 = z.string().check(z.regex(/^[0-9a-f]{64}$/, "a digest is 64 lower-case hex digits"));

export const revisionRecordSchema = z.object({
  revision: z.int().check(z.gte(1)),
  digest: hex64,
  previous: z.nullable(hex64),
  publishedAt: z.string(),
  /** The RFC 8785 object the digest is of: checked by hashing it again, never trusted as it is. */
  canonical: z.record(z.string(), z.unknown()),
  author: z.nullable(
    z.object({
      signature: z.string().check(z.regex(/^0x[0-9a-fA-F]+$/), z.maxLength(20_000)),
      signer: z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/)),
      signedAt: z.string(),
    }),
  ),
  site: z.object({
    proof: z.record(z.string(), z.unknown()),
    keyId: z.string(),
    document: z.record(z.string(), z.unknown()),
  }),
});
export type RevisionRecord = z.infer<typeof revisionRecordSchema>;

const fileFields = {
  format: z.literal(PROVENANCE_FORMAT),
  post: z.string().check(z.maxLength(200)),
  /** The post's provenance page on the site that wrote these revisions. */
  page: z.string().check(z.maxLength(2000)),
  chainId: z.int(),
  /** The site actor's Ed25519 key when the archive was made (a JWK's `x`), under the id its proofs name. */
  siteKey: z.nullable(z.object({ id: z.string(), x: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/)) })),
  revisions: z.array(revisionRecordSchema).check(z.maxLength(10_000)),
};

/** A post's revisions on one site. */
export const siteProvenanceSchema = z.object(fileFields);
export type SiteProvenance = z.infer<typeof siteProvenanceSchema>;

/** The file: this site's revisions, and those of the sites the post was imported from, earliest last. */
export const provenanceFileSchema = z.object({
  ...fileFields,
  imported: z._default(z.array(siteProvenanceSchema).check(z.maxLength(20)), []),
});
export type ProvenanceFile = z.infer<typeof provenanceFileSchema>;
