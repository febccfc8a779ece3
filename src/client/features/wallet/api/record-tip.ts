import { useMutation } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "../../../lib/api-client.ts";
import type { TipTarget } from "../components/tip-dialog.tsx";

/** Records a confirmed ETH tip where `to` says; the server verifies it on-chain first. Then `onPaid`. */
export function useRecordTip(to: Pick<TipTarget, "recordAt" | "hashField">, onPaid?: () => void) {
  return useMutation({
    mutationFn: (hash: string) => api(to.recordAt, z.unknown(), { method: "POST", body: { [to.hashField]: hash } }),
    onSuccess: () => onPaid?.(),
  });
}
