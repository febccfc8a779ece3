import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { pageOf } from "#shared/schemas/pagination.ts";
import { adminUserListItemSchema, privateUserSchema, rewardResultSchema } from "#shared/schemas/users.ts";
import type { z } from "#shared/zod.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

export type AdminUser = z.infer<typeof adminUserListItemSchema>;

export const useAdminUsers = () =>
  useInfiniteQuery({
    queryKey: queryKeys.users.adminList(),
    queryFn: ({ pageParam }) =>
      api(`/api/users?limit=50${pageParam ? `&cursor=${pageParam}` : ""}`, pageOf(adminUserListItemSchema)),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });

/**
 * Block, unblock, reward and the moderator role; the list reloads after each
 * (docs/specification.md §States and transitions).
 */
export function useAdminUserAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      id,
      action,
    }: {
      id: string;
      action: "block-user" | "unblock-user" | "likes" | "moderator" | "no-moderator";
    }): Promise<unknown> => {
      if (action === "likes") return api(`/api/users/likes/${id}`, rewardResultSchema, { method: "PUT" });
      if (action === "moderator" || action === "no-moderator")
        return api(`/api/users/role/${id}`, privateUserSchema, {
          method: "PUT",
          body: { moderator: action === "moderator" },
        });
      return api(`/api/users/${action}/${id}`, privateUserSchema, { method: "PUT" });
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.users.adminList() }),
  });
}

/** After a tip is recorded: the list's rewards, and the Payments screen. */
export function useReloadAfterTip() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.users.adminList() });
    void queryClient.invalidateQueries({ queryKey: queryKeys.payments.all() });
  };
}
