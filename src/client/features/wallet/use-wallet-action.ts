import { useState } from "react";
import type { Hash } from "viem";
import type { PublicConfig } from "#shared/schemas/system.ts";
import { usePublicConfig } from "../../lib/config.ts";
import { parseWalletError } from "./parse-wallet-error.ts";
import { useConnectThen } from "./use-connect-then.ts";
import { useTransactor } from "./use-transactor.ts";
import { useWalletSteps } from "./use-wallet-steps.ts";

interface Handlers {
  /** Every hash as soon as the wallet gives it (again if the transaction is sped up), so nothing paid is lost. */
  onHash?: (hash: Hash) => void;
  /** The confirmed hash, or null when the transaction failed or was replaced; not called when sending failed. */
  onSettled?: (confirmed: Hash | null) => void;
}

/**
 * One payment from the user's wallet, as paying the fee and tipping both make it: connect (RainbowKit's modal when
 * needed), switch to our chain, check or verify the account's wallet, send, then follow the confirmations. Every
 * failure ends in words on `tx.state`.
 */
export function useWalletAction() {
  const site = usePublicConfig().data as PublicConfig;
  const connect = useConnectThen();
  const steps = useWalletSteps(site);
  const tx = useTransactor({ confirmations: site.minConfirmations, chainName: site.chainName });
  const [busy, setBusy] = useState(false);

  async function send(build: (account: `0x${string}`) => Promise<Hash>, handlers: Handlers) {
    setBusy(true);
    try {
      const account = await steps.prepare();
      handlers.onSettled?.(await tx.run(() => build(account), handlers.onHash));
    } catch (error) {
      tx.fail(parseWalletError(error, { chainName: site.chainName }));
    } finally {
      setBusy(false);
    }
  }

  return {
    site,
    busy,
    /** Whether a click can start now (false while a lost connection is being restored). */
    ready: connect.ready,
    /** The step in progress before sending ("Switch your wallet to …"), for the user to follow. */
    step: steps.step,
    tx,
    start: (build: (account: `0x${string}`) => Promise<Hash>, handlers: Handlers = {}) =>
      connect.run(() => void send(build, handlers)),
  };
}

export type WalletAction = ReturnType<typeof useWalletAction>;
