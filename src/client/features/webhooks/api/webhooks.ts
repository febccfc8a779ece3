import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  createdWebhookSchema,
  type WebhookCreate,
  type WebhookUpdate,
  webhookDeliveryListSchema,
  webhookListSchema,
  webhookSchema,
} from "#shared/schemas/webhooks.ts";
import { z } from "#shared/zod.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

const queuedSchema = z.object({ id: z.string() });

export const useWebhooks = () =>
  useQuery({ queryKey: queryKeys.webhooks.all(), queryFn: () => api("/api/webhooks", webhookListSchema) });

/** An endpoint's latest deliveries, read again every few seconds while it is open. */
export const useDeliveries = (id: string) =>
  useQuery({
    queryKey: queryKeys.webhooks.deliveries(id),
    queryFn: () => api(`/api/webhooks/${id}/deliveries`, webhookDeliveryListSchema),
    refetchInterval: 3000,
  });

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WebhookCreate) => api("/api/webhooks", createdWebhookSchema, { method: "POST", body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.all() }),
  });
}

export function useUpdateWebhook(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WebhookUpdate) => api(`/api/webhooks/${id}`, webhookSchema, { method: "PATCH", body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.all() }),
  });
}

export function useDeleteWebhook(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api(`/api/webhooks/${id}`, webhookSchema, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.all() }),
  });
}

/** The test event, or a delivery sent again: both show among the deliveries. */
export function useSendAgain(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string | null) =>
      api(
        deliveryId ? `/api/webhooks/${id}/deliveries/${deliveryId}/redeliver` : `/api/webhooks/${id}/test`,
        queuedSchema,
        {
          method: "POST",
        },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.deliveries(id) }),
  });
}
