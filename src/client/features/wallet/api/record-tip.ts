import { useMutation, useQueryClient } from "@tanstack/react-query";
import { rewardResultSchema } from "../../../../shared/schemas/users.ts";
import { api } from "../../../lib/api-client.ts";
import { adminKeys } from "../../admin/public.ts";

/** Records a confirmed ETH tip as the admin's reward; the server verifies it on-chain first. */
export function useRecordTip() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, hash }: { userId: string; hash: string }) =>
      api(`/api/users/${userId}/tip`, rewardResultSchema, {
        method: "POST",
        body: { transectionHash: hash },
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.users() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.payments() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.rewards() });
    },
  });
}
