import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { LinkWalletInput } from "../../../../shared/schemas/siwe.ts";
import { privateUserSchema } from "../../../../shared/schemas/users.ts";
import { api } from "../../../lib/api-client.ts";
import { useSession, useSetSession } from "../../../lib/session.ts";
import { userKeys } from "../../users/public.ts";

export const linkWallet = (input: LinkWalletInput) =>
  api("/api/users/wallet", privateUserSchema, { method: "POST", body: input });

/** Verifies (or changes) the signed-in user's wallet; the profile and the session follow. */
export function useLinkWallet() {
  const queryClient = useQueryClient();
  const session = useSession();
  const setSession = useSetSession();
  return useMutation({
    mutationFn: linkWallet,
    onSuccess: (user) => {
      if (session) setSession({ ...session, walletAddress: user.walletAddress });
      void queryClient.invalidateQueries({ queryKey: userKeys.user(user.id) });
      void queryClient.invalidateQueries({ queryKey: userKeys.profile(user.id) });
    },
  });
}
