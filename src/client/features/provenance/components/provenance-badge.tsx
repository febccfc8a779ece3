import { Link } from "@chakra-ui/react";
import type { Post } from "#shared/schemas/posts.ts";

/** What a post says of its latest revision: its number and the wallet that signed it. */
type LatestRevision = NonNullable<Post["provenance"]>;

/** `0x1234…abcd`: enough of an address to tell it from another at a glance; the page shows it whole. */
export const shortAddress = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

export const badgeText = ({ revision, signer }: LatestRevision) =>
  signer ? `Signed by ${shortAddress(signer)}, revision ${revision}` : "Not signed by its author";

/**
 * "Signed by 0x1234…abcd, revision 3" or "Not signed by its author", linking to the post's provenance page (served by
 * the server, readable without script: a plain link, not the app's router).
 */
export function ProvenanceBadge({ postId, provenance }: { postId: string; provenance: LatestRevision }) {
  return (
    <Link
      href={`/posts/${encodeURIComponent(postId)}/provenance`}
      fontSize="sm"
      color="fg.muted"
      textDecoration="underline"
      alignSelf="flex-start"
      title={provenance.signer ? `Signed by the author's wallet ${provenance.signer}` : undefined}
      data-testid="provenance-badge"
    >
      {badgeText(provenance)}
    </Link>
  );
}
