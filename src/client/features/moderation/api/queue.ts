import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import {
  type ActionInput,
  actionResultSchema,
  queueItemSchema,
  type ReportKind,
  type ReportStatus,
} from "#shared/schemas/moderation.ts";
import { pageOf } from "#shared/schemas/pagination.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

const queuePage = pageOf(queueItemSchema);

export function useQueue(status: ReportStatus, kind: ReportKind | undefined) {
  return useInfiniteQuery({
    queryKey: queryKeys.moderation.queue(status, kind),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ status });
      if (kind) query.set("kind", kind);
      if (pageParam) query.set("cursor", pageParam);
      return api(`/api/moderation/reports?${query}`, queuePage);
    },
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

/** A moderator's decision; the queue, the log and every page showing the item are read again. */
export function useModerationAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ActionInput) =>
      api("/api/moderation/actions", actionResultSchema, { method: "POST", body: input }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.moderation.all() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.posts.all() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.federation.all() });
    },
  });
}
