import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { Hash, TransactionReceipt } from "viem";
import { useBlockNumber, useConfig } from "wagmi";
import { getPublicClient } from "wagmi/actions";
import { queryKeys } from "../../lib/query-keys.ts";
import { parseWalletError } from "./parse-wallet-error.ts";

export type TxState =
  | { status: "idle" }
  | { status: "wallet" }
  | { status: "pending"; hash: Hash }
  | { status: "mined"; hash: Hash; blockNumber: bigint }
  | { status: "confirmed"; hash: Hash; blockNumber: bigint }
  | { status: "failed"; hash?: Hash; message: string };

const RECEIPT_TIMEOUT_MS = 10 * 60 * 1000;

class TxFailed extends Error {}

/**
 * Follows one transaction from the wallet's prompt to the confirmations the server will ask for: sent, mined,
 * confirmed or failed, with every failure in words. A repriced (sped-up) transaction is followed under its new
 * hash; a cancelled or replaced one fails. `onHash` hears every hash as soon as it exists, so nothing paid is lost.
 */
export function useTransactor({ confirmations, chainName }: { confirmations: number; chainName: string }) {
  const config = useConfig();
  const queryClient = useQueryClient();
  const [state, setState] = useState<TxState>({ status: "idle" });
  const block = useBlockNumber({ watch: state.status === "mined" });
  const seen = state.status === "mined" && block.data ? Number(block.data - state.blockNumber + 1n) : 0;

  async function run(send: () => Promise<Hash>, onHash?: (hash: Hash) => void): Promise<Hash | null> {
    let hash: Hash | undefined;
    setState({ status: "wallet" });
    try {
      hash = await send();
      onHash?.(hash);
      setState({ status: "pending", hash });
      const client = getPublicClient(config);
      if (!client) throw new Error("No RPC is configured for this chain.");
      let replaced: string | undefined;
      const receipt: TransactionReceipt = await client.waitForTransactionReceipt({
        hash,
        timeout: RECEIPT_TIMEOUT_MS,
        onReplaced: (replacement) => {
          if (replacement.reason === "repriced") {
            hash = replacement.transaction.hash;
            onHash?.(hash);
          } else replaced = replacement.reason;
        },
      });
      if (replaced) throw new TxFailed(`The transaction was ${replaced} in your wallet, so nothing was paid.`);
      if (receipt.status !== "success") throw new TxFailed("The transaction failed on-chain, so nothing was paid.");
      if (confirmations > 1) {
        setState({ status: "mined", hash, blockNumber: receipt.blockNumber });
        await client.waitForTransactionReceipt({ hash, confirmations, timeout: RECEIPT_TIMEOUT_MS });
      }
      setState({ status: "confirmed", hash, blockNumber: receipt.blockNumber });
      // Balances shown by RainbowKit are wagmi queries: they changed with this transaction.
      void queryClient.invalidateQueries({ queryKey: queryKeys.walletBalances() });
      return hash;
    } catch (error) {
      const message = error instanceof TxFailed ? error.message : parseWalletError(error, { chainName });
      setState({ status: "failed", hash, message });
      return null;
    }
  }

  return {
    state,
    confirmations: state.status === "confirmed" ? confirmations : Math.min(seen, confirmations),
    run,
    fail: (message: string) => setState({ status: "failed", message }),
  };
}
