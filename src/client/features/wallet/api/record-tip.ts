import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";

/** Records a confirmed ETH tip as the admin's reward; the server verifies it on-chain first. */
export function useRecordTip() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, hash }: { userId: string; hash: string }) =>
      api<{ isRewarded: boolean; rewardsCount: number }>(`/api/users/${userId}/tip`, {
        method: "POST",
        body: { transectionHash: hash },
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["admin-users"] });
      void queryClient.invalidateQueries({ queryKey: ["payments"] });
      void queryClient.invalidateQueries({ queryKey: ["rewards"] });
    },
  });
}
