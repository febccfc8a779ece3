import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { isAddressEqual } from "viem";
import { useConfig } from "wagmi";
import { getAccount, switchChain } from "wagmi/actions";
import type { PublicConfig } from "#shared/schemas/system.ts";
import { useSession } from "../../lib/session.ts";
import { userQueryOptions } from "../../lib/user-details.ts";
import { useLinkWallet } from "./api/link-wallet.ts";
import { signWalletProof } from "./api/sign-wallet-proof.ts";

/**
 * The steps before a payment, each shown as it happens: the configured chain, then the account's verified wallet
 * (verified here by a signature when the account has none). Any other wallet is refused in words.
 */
export function useWalletSteps(site: PublicConfig) {
  const config = useConfig();
  const session = useSession();
  const queryClient = useQueryClient();
  const link = useLinkWallet();
  const [step, setStep] = useState<string | null>(null);

  async function prepare(): Promise<`0x${string}`> {
    const { address, chainId } = getAccount(config);
    if (!address || !session) throw new Error("Connect your wallet first.");
    try {
      if (chainId !== site.chainId) {
        setStep(`Switch your wallet to ${site.chainName}…`);
        await switchChain(config, { chainId: site.chainId });
      }
      const own = await queryClient.fetchQuery({ ...userQueryOptions(session.id), staleTime: 0 });
      if (!own.isWalletVerified || !own.walletAddress) {
        setStep("Sign the message in your wallet to verify it is yours…");
        const statement = "Verify this wallet for my Penchain account.";
        await link.mutateAsync(await signWalletProof(config, { address, chainId: site.chainId, statement }));
      } else if (!isAddressEqual(own.walletAddress as `0x${string}`, address)) {
        throw new Error(
          `Your wallet is connected with ${address}, but the wallet verified on your account is ${own.walletAddress}. Switch to it in your wallet, or verify this one from your profile.`,
        );
      }
      return address;
    } finally {
      setStep(null);
    }
  }

  return { step, prepare };
}
