import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "#shared/zod.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

/** What the client reads of `GET /api/posts/{id}/provenance`; the revisions themselves are the server page's. */
export const provenanceSummarySchema = z.object({
  post: z.string(),
  page: z.string(),
  matches: z.boolean(),
  latest: z.nullable(z.int()),
  signer: z.nullable(z.string()),
  /** For the post's author with a verified wallet, while the latest revision is unsigned: EIP-712 typed data. */
  toSign: z.nullable(
    z.object({
      domain: z.record(z.string(), z.unknown()),
      types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
      primaryType: z.string(),
      message: z.record(z.string(), z.unknown()),
    }),
  ),
});
export type ProvenanceSummary = z.infer<typeof provenanceSummarySchema>;

export const getProvenance = (postId: string) =>
  api(`/api/posts/${encodeURIComponent(postId)}/provenance`, provenanceSummarySchema);

export const provenanceQueryOptions = (postId: string) =>
  queryOptions({ queryKey: queryKeys.posts.provenance(postId), queryFn: () => getProvenance(postId) });

export const useProvenance = (postId: string, enabled = true) =>
  useQuery({ ...provenanceQueryOptions(postId), enabled });
