import canonicalize from "canonicalize";

// A post's revisions (docs/provenance.md): what the server writes, the client asks its author to sign, and
// `npm run verify-post` checks, from one recipe.

/** What one revision of a post is: serialised with RFC 8785 (JCS), its SHA-256 is the revision's digest. */
export interface CanonicalRevision {
  post: string;
  revision: number;
  title: string;
  /** The sanitised HTML as stored. */
  body: string;
  /** The category's title. */
  category: string;
  /** Hex SHA-256 of the cover image file's bytes, or null. */
  cover: string | null;
  author: { id: string; handle: string };
  /** ISO-8601, this revision's time. */
  publishedAt: string;
  /** The previous revision's digest, or null for the first. */
  previous: string | null;
}

/** The fields of a post the canonical object carries, in the words a reader is shown when one differs. */
export const CANONICAL_FIELDS = {
  title: "title",
  body: "body",
  category: "category",
  cover: "cover image",
  author: "author's handle",
} as const satisfies Partial<Record<keyof CanonicalRevision, string>>;

export const ZERO_DIGEST = `0x${"0".repeat(64)}` as const;

/** The JCS bytes of a canonical object, as text. */
export function canonicalText(revision: CanonicalRevision) {
  const text = canonicalize(revision);
  if (text === undefined) throw new Error("a revision cannot be canonicalised");
  return text;
}

/** Hex SHA-256 (no 0x) of the canonical object's JCS bytes. */
export async function revisionDigest(revision: CanonicalRevision) {
  const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonicalText(revision)));
  return [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export const REVISION_TYPES = {
  Revision: [
    { name: "post", type: "string" },
    { name: "revision", type: "uint256" },
    { name: "digest", type: "bytes32" },
    { name: "previous", type: "bytes32" },
  ],
} as const;

/** The EIP-712 typed data an author signs for a revision (viem's and wagmi's `signTypedData` take it as is). */
export function revisionTypedData(
  chainId: number,
  revision: { post: string; revision: number; digest: string; previous: string | null },
) {
  return {
    domain: { name: "Penchain", version: "1", chainId },
    types: REVISION_TYPES,
    primaryType: "Revision" as const,
    message: {
      post: revision.post,
      revision: BigInt(revision.revision),
      digest: `0x${revision.digest}` as `0x${string}`,
      previous: (revision.previous ? `0x${revision.previous}` : ZERO_DIGEST) as `0x${string}`,
    },
  };
}

/** The page where anyone can check a post's revisions. */
export const provenancePath = (postId: string) => `/posts/${postId}/provenance`;
