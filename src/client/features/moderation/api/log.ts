import { useInfiniteQuery } from "@tanstack/react-query";
import { logEntrySchema } from "#shared/schemas/moderation.ts";
import { pageOf } from "#shared/schemas/pagination.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

const logPage = pageOf(logEntrySchema);

export const useModerationLog = () =>
  useInfiniteQuery({
    queryKey: queryKeys.moderation.log(),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => api(`/api/moderation/log${pageParam ? `?cursor=${pageParam}` : ""}`, logPage),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
