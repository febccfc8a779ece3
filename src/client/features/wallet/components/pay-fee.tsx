import { Button, HStack, Stack, Text } from "@chakra-ui/react";
import { ConnectButton } from "@rainbow-me/rainbowkit";
import { type Hash, toHex } from "viem";
import { useConfig } from "wagmi";
import { simulateContract, writeContract } from "wagmi/actions";
import { FEATURED_FEE_LABEL } from "#shared/constants.ts";
import { featuredFeeAbi } from "#shared/contracts/featured-fee.ts";
import { useSession } from "../../../lib/session.ts";
import { unusedPayment } from "../unused-payment.ts";
import { useWalletAction } from "../use-wallet-action.ts";
import { WalletProgress } from "./wallet-progress.tsx";
import { walletIsland } from "./wallet-providers.tsx";

interface Props {
  /** Fills the form's transaction-hash field; called as soon as the wallet sends, and again if it is sped up. */
  onHash: (hash: string) => void;
  currentHash: string;
}

/** Create Blog's "Pay 0.01 ETH": connect, switch, verify, simulate, pay through FeaturedFee, then confirmations. */
export default walletIsland(PayFeePanel);

function PayFeePanel({ onHash, currentHash }: Props) {
  const session = useSession();
  const config = useConfig();
  const action = useWalletAction();
  const { site, tx } = action;
  const earlier = session ? unusedPayment.get(session.id) : null;
  // One payment per post: once it is confirmed, the button cannot pay again.
  const paid = tx.state.status === "confirmed";

  function pay() {
    // Every hash the wallet gives goes into the form and the browser's memory at once: nothing paid is lost.
    let sent: Hash | undefined;
    action.start(
      async (account) => {
        const { request } = await simulateContract(config, {
          address: site.feeRecipient as `0x${string}`,
          abi: featuredFeeAbi,
          functionName: "payFeature",
          args: [toHex(crypto.getRandomValues(new Uint8Array(32)))],
          value: BigInt(site.feeWei),
          account,
          chainId: site.chainId,
        });
        return writeContract(config, request);
      },
      {
        onHash: (hash) => {
          sent = hash;
          onHash(hash);
          if (session) unusedPayment.remember(session.id, hash);
        },
        onSettled: (confirmed) => {
          if (!confirmed && session) unusedPayment.forget(session.id, sent);
        },
      },
    );
  }

  return (
    <Stack gap="3">
      <HStack gap="3" wrap="wrap">
        <ConnectButton showBalance accountStatus="address" chainStatus="icon" />
        <Button
          type="button"
          colorPalette="teal"
          variant="outline"
          onClick={pay}
          disabled={action.busy || paid || !action.ready}
        >
          {action.busy ? "Paying…" : paid ? "Paid" : `Pay ${FEATURED_FEE_LABEL}`}
        </Button>
      </HStack>
      <WalletProgress action={action} />
      {earlier && !currentHash && tx.state.status === "idle" && (
        <HStack gap="2" wrap="wrap">
          <Text fontSize="sm">You paid earlier and have not used that payment yet.</Text>
          <Button type="button" size="xs" variant="outline" onClick={() => onHash(earlier)}>
            Use it
          </Button>
        </HStack>
      )}
    </Stack>
  );
}
