import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { unreadCountSchema } from "#shared/schemas/live.ts";
import { notificationSchema } from "#shared/schemas/notifications.ts";
import { pageOf } from "#shared/schemas/pagination.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

const notificationPageSchema = pageOf(notificationSchema);

export const notificationsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: queryKeys.notifications.list(),
    queryFn: ({ pageParam }) =>
      api(
        `/api/notifications?limit=20${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ""}`,
        notificationPageSchema,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });

export const useNotifications = () => useInfiniteQuery(notificationsQueryOptions());

/** Marks some notifications read (`ids`), or all of them; the bell's count follows from the answer. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids?: string[]) =>
      api("/api/notifications/read", unreadCountSchema, { method: "PUT", body: ids ? { ids } : {} }),
    onSuccess: (unread) => {
      queryClient.setQueryData(queryKeys.notifications.unread(), unread);
      void queryClient.invalidateQueries({ queryKey: queryKeys.notifications.list() });
    },
  });
}
