import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { LinkWalletInput } from "#shared/schemas/siwe.ts";
import { type PrivateUser, privateUserSchema } from "#shared/schemas/users.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import { useSession, useSetSession } from "../../../lib/session.ts";

export const linkWallet = (input: LinkWalletInput) =>
  api("/api/users/wallet", privateUserSchema, { method: "POST", body: input });

/** Verifies (or changes) the signed-in user's wallet; the session and their details follow, then `onLinked`. */
export function useLinkWallet(onLinked?: (user: PrivateUser) => void) {
  const queryClient = useQueryClient();
  const session = useSession();
  const setSession = useSetSession();
  return useMutation({
    mutationFn: linkWallet,
    onSuccess: (user) => {
      if (session) setSession({ ...session, walletAddress: user.walletAddress });
      void queryClient.invalidateQueries({ queryKey: queryKeys.users.summary(user.id) });
      onLinked?.(user);
    },
  });
}
