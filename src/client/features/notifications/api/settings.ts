import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  type Delivery,
  type NotificationTopic,
  notificationSettingsSchema,
  type UnsubscribeInput,
  unsubscribeResultSchema,
} from "#shared/schemas/notifications.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

export const useNotificationSettings = () =>
  useQuery({
    queryKey: queryKeys.notifications.settings(),
    queryFn: () => api("/api/notifications/settings", notificationSettingsSchema),
  });

export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: { topic: NotificationTopic; delivery: Delivery }[]) =>
      api("/api/notifications/settings", notificationSettingsSchema, { method: "PUT", body: { settings } }),
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.notifications.settings(), saved),
  });
}

/** What an unsubscribe link does (no login: its token is the proof), and its undo. */
export const useUnsubscribe = () =>
  useMutation({
    mutationFn: (link: UnsubscribeInput) =>
      api("/api/notifications/unsubscribe", unsubscribeResultSchema, { method: "POST", body: link }),
  });

export const useResubscribe = () =>
  useMutation({
    mutationFn: (link: UnsubscribeInput & { topics: NotificationTopic[]; undo?: string | undefined }) =>
      api("/api/notifications/resubscribe", unsubscribeResultSchema, { method: "POST", body: link }),
  });
