import { queryOptions, useQuery } from "@tanstack/react-query";
import { provenanceSchema } from "#shared/schemas/provenance.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

export const getProvenance = (postId: string) =>
  api(`/api/posts/${encodeURIComponent(postId)}/provenance`, provenanceSchema);

export const provenanceQueryOptions = (postId: string) =>
  queryOptions({ queryKey: queryKeys.posts.provenance(postId), queryFn: () => getProvenance(postId) });

export const useProvenance = (postId: string, enabled = true) =>
  useQuery({ ...provenanceQueryOptions(postId), enabled });
