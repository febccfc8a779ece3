import { useMutation } from "@tanstack/react-query";
import { z } from "#shared/zod.ts";
import { api } from "../../../lib/api-client.ts";

/** Where the server records a confirmed tip. */
export interface TipRecording {
  /** The API call that records it: an admin's reward, or a reader's tip on a post or a profile. */
  recordAt: string;
  /** What the call takes the hash as (the admins' older call says `transectionHash`). */
  hashField: "txHash" | "transectionHash";
}

/** Records a confirmed ETH tip where `to` says; the server verifies it on-chain first. Then `onPaid`. */
export function useRecordTip(to: TipRecording, onPaid?: () => void) {
  return useMutation({
    mutationFn: (hash: string) => api(to.recordAt, z.unknown(), { method: "POST", body: { [to.hashField]: hash } }),
    onSuccess: () => onPaid?.(),
  });
}
