import { useMutation } from "@tanstack/react-query";
import { rewardResultSchema } from "../../../../shared/schemas/users.ts";
import { api } from "../../../lib/api-client.ts";

/** Records a confirmed ETH tip as the admin's reward; the server verifies it on-chain first. Then `onPaid`. */
export function useRecordTip(onPaid?: () => void) {
  return useMutation({
    mutationFn: ({ userId, hash }: { userId: string; hash: string }) =>
      api(`/api/users/${userId}/tip`, rewardResultSchema, {
        method: "POST",
        body: { transectionHash: hash },
      }),
    onSuccess: () => onPaid?.(),
  });
}
