import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { Payment, Reward } from "../../../../shared/schemas/payments.ts";
import { api } from "../../../lib/api-client.ts";

type Page<T> = { items: T[]; nextCursor: string | null };

/** Verified payments of one kind, newest first, a page at a time. */
export const usePayments = (purpose: Payment["purpose"]) =>
  useInfiniteQuery({
    queryKey: ["payments", purpose],
    queryFn: ({ pageParam }) =>
      api<Page<Payment>>(`/api/payments?purpose=${purpose}&limit=50${pageParam ? `&cursor=${pageParam}` : ""}`),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });

/** Who rewarded a user, with each admin's tip (the first 100; one admin rewards a user once). */
export const useRewards = (userId: string) =>
  useQuery({
    queryKey: ["rewards", userId],
    queryFn: () => api<Page<Reward>>(`/api/users/${userId}/rewards?limit=100`),
  });
