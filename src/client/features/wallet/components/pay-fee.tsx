import { Button, HStack, Spinner, Stack, Text } from "@chakra-ui/react";
import { ConnectButton } from "@rainbow-me/rainbowkit";
import { useState } from "react";
import { type Hash, toHex } from "viem";
import { useConfig } from "wagmi";
import { simulateContract, writeContract } from "wagmi/actions";
import { FEATURED_FEE_LABEL } from "../../../../shared/constants.ts";
import { featuredFeeAbi } from "../../../../shared/contracts/featured-fee.ts";
import type { PublicConfig } from "../../../../shared/schemas/system.ts";
import { usePublicConfig } from "../../../lib/config.ts";
import { useSession } from "../../../lib/session.ts";
import { parseWalletError } from "../parse-wallet-error.ts";
import { unusedPayment } from "../unused-payment.ts";
import { useConnectThen } from "../use-connect-then.ts";
import { useTransactor } from "../use-transactor.ts";
import { useWalletSteps } from "../use-wallet-steps.ts";
import { TransactionStatus } from "./transaction-status.tsx";
import { walletIsland } from "./wallet-providers.tsx";

interface Props {
  /** Fills the form's transaction-hash field; called as soon as the wallet sends, and again if it is sped up. */
  onHash: (hash: string) => void;
  currentHash: string;
}

/** Create Blog's "Pay 0.01 ETH": connect, switch, verify, simulate, pay through FeaturedFee, then confirmations. */
export default walletIsland(PayFeePanel);

function PayFeePanel({ onHash, currentHash }: Props) {
  const site = usePublicConfig().data as PublicConfig;
  const session = useSession();
  const config = useConfig();
  const connect = useConnectThen();
  const steps = useWalletSteps(site);
  const tx = useTransactor({ confirmations: site.minConfirmations, chainName: site.chainName });
  const [busy, setBusy] = useState(false);
  const earlier = session ? unusedPayment.get(session.id) : null;
  // One payment per post: once it is confirmed, the button cannot pay again.
  const paid = tx.state.status === "confirmed";

  async function pay() {
    setBusy(true);
    try {
      const account = await steps.prepare();
      // Every hash the wallet gives goes into the form and the browser's memory at once: nothing paid is lost.
      let sent: Hash | undefined;
      const remember = (hash: Hash) => {
        sent = hash;
        onHash(hash);
        if (session) unusedPayment.remember(session.id, hash);
      };
      const confirmed = await tx.run(async () => {
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
      }, remember);
      if (!confirmed && session) unusedPayment.forget(session.id, sent);
    } catch (error) {
      tx.fail(parseWalletError(error, { chainName: site.chainName }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="3">
      <HStack gap="3" wrap="wrap">
        <ConnectButton showBalance accountStatus="address" chainStatus="icon" />
        <Button
          type="button"
          colorPalette="teal"
          variant="outline"
          onClick={() => connect.run(() => void pay())}
          disabled={busy || paid || !connect.ready}
        >
          {busy ? "Paying…" : paid ? "Paid" : `Pay ${FEATURED_FEE_LABEL}`}
        </Button>
      </HStack>
      {steps.step && (
        <HStack gap="2" aria-live="polite">
          <Spinner size="xs" />
          <Text>{steps.step}</Text>
        </HStack>
      )}
      <TransactionStatus
        state={tx.state}
        confirmations={tx.confirmations}
        required={site.minConfirmations}
        explorerUrl={site.explorerUrl}
      />
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
