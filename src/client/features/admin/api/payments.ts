import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { pageOf } from "#shared/schemas/pagination.ts";
import { type Payment, paymentSchema, rewardSchema } from "#shared/schemas/payments.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

/** Verified payments of one kind, newest first, a page at a time. */
export const usePayments = (purpose: Payment["purpose"]) =>
  useInfiniteQuery({
    queryKey: queryKeys.payments.list(purpose),
    queryFn: ({ pageParam }) =>
      api(`/api/payments?purpose=${purpose}&limit=50${pageParam ? `&cursor=${pageParam}` : ""}`, pageOf(paymentSchema)),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });

/** Who rewarded a user, with each admin's tip (the first 100; one admin rewards a user once). */
export const useRewards = (userId: string) =>
  useQuery({
    queryKey: queryKeys.payments.rewards(userId),
    queryFn: () => api(`/api/users/rewards/${userId}?limit=100`, pageOf(rewardSchema)),
  });
