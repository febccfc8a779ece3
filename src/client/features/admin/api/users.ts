import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { adminUserListItemSchema } from "../../../../shared/schemas/users.ts";
import { api } from "../../../lib/api-client.ts";

export type AdminUser = z.infer<typeof adminUserListItemSchema>;

export const useAdminUsers = () =>
  useInfiniteQuery({
    queryKey: ["admin-users"],
    queryFn: ({ pageParam }) =>
      api<{ items: AdminUser[]; nextCursor: string | null }>(
        `/api/users?limit=50${pageParam ? `&cursor=${pageParam}` : ""}`,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });

/** Block, unblock and reward; the list reloads after each, as the spec says. */
export function useAdminUserAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: "block-user" | "unblock-user" | "likes" }) =>
      api<unknown>(action === "likes" ? `/api/users/likes/${id}` : `/api/users/${action}/${id}`, { method: "PUT" }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["admin-users"] }),
  });
}
