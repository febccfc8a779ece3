import { useMutation, useQueryClient } from "@tanstack/react-query";
import { revisionSignedSchema } from "#shared/schemas/provenance.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

export const signRevision = ({
  postId,
  revision,
  signature,
}: {
  postId: string;
  revision: number;
  signature: string;
}) =>
  api(`/api/posts/${encodeURIComponent(postId)}/revisions/${revision}/signature`, revisionSignedSchema, {
    method: "POST",
    body: { signature },
  });

/** Hands the author's signature to the server, which checks it; the post (its badge) and lists show it then. */
export function useSignRevision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signRevision,
    onSuccess: (_signed, { postId }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.posts.detail(postId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.posts.lists() });
    },
  });
}
