import { useMutation, useQuery } from "@tanstack/react-query";
import {
  confirmResultSchema,
  type SubscribeInput,
  type SubscriptionLink,
  subscribeResultSchema,
  subscriberCountsSchema,
  subscriptionStateSchema,
} from "#shared/schemas/subscriptions.ts";
import { api, apiText } from "../../../lib/api-client.ts";
import { saveFile } from "../../../lib/download.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

/** "Subscribe by e-mail": the server mails a confirmation link and answers the same whatever the address. */
export const useSubscribe = () =>
  useMutation({
    mutationFn: (input: SubscribeInput) =>
      api("/api/subscriptions", subscribeResultSchema, { method: "POST", body: input }),
  });

/** The confirmation link's page: it confirms once opened (a scanner that only fetches the mail's link does not). */
export const useConfirmSubscription = () =>
  useMutation({
    mutationFn: (token: string) => api(`/api/subscriptions/confirm/${encodeURIComponent(token)}`, confirmResultSchema),
  });

/** A subscriber's unsubscribe link (no login: its token is the proof), and its "Subscribe again". */
export const useSubscriptionLink = (action: "unsubscribe" | "resubscribe") =>
  useMutation({
    mutationFn: (link: SubscriptionLink) =>
      api(`/api/subscriptions/${action}`, subscriptionStateSchema, { method: "POST", body: link }),
  });

export const useSubscriberCounts = (authorId: string) =>
  useQuery({
    queryKey: queryKeys.subscribers.counts(authorId),
    queryFn: () => api(`/api/users/subscribers/${authorId}`, subscriberCountsSchema),
  });

export async function downloadSubscribers(authorId: string) {
  saveFile("subscribers.csv", await apiText(`/api/users/subscribers/${authorId}.csv`));
}
