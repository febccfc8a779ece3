import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import {
  type ActionInput,
  actionResultSchema,
  queueItemSchema,
  type ReportKind,
  type ReportOrigin,
  type ReportStatus,
} from "#shared/schemas/moderation.ts";
import { pageOf } from "#shared/schemas/pagination.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

const queuePage = pageOf(queueItemSchema);

export interface QueueFilter {
  status: ReportStatus;
  kind?: ReportKind | undefined;
  rule?: string | undefined;
  origin?: ReportOrigin | undefined;
}

export function useQueue({ status, kind, rule, origin }: QueueFilter) {
  return useInfiniteQuery({
    queryKey: queryKeys.moderation.queue(status, kind, rule, origin),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ status });
      if (kind) query.set("kind", kind);
      if (rule) query.set("rule", rule);
      if (origin) query.set("origin", origin);
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
