import { formatEther, getAddress, type Hash, isAddressEqual, parseEventLogs } from "viem";
import { featuredFeeAbi } from "#shared/contracts/featured-fee.ts";
import { HttpError } from "../../http-error.ts";
import { isNotFound } from "../../infra/chain.ts";
import type { Deps } from "../core/deps.ts";
import { statusAt } from "./finality.ts";

export interface VerifiedPayment {
  chainId: number;
  txHash: string;
  payer: `0x${string}`;
  recipient: `0x${string}`;
  amountWei: bigint;
  blockNumber: bigint;
  blockHash: string;
  confirmations: number;
  /** "confirming" until the payment has FINALITY_CONFIRMATIONS; the payment watcher follows it until then. */
  status: "confirming" | "final";
}

interface Expectation {
  txHash: string;
  /** The payer's verified wallet (`payingWallet`). */
  payerWallet: `0x${string}`;
  recipient: `0x${string}`;
  minAmountWei: bigint;
  what: string;
}

const unreachable = () =>
  new HttpError(
    503,
    "The blockchain node cannot be reached to check the payment. Nothing was saved: please try again.",
  );

/** Contract recipients prove payment with a FeaturePaid event; plain addresses by the transfer itself. */
const recipientIsContract = new Map<string, boolean>();
async function isContract(deps: Pick<Deps, "chain" | "config">, address: `0x${string}`) {
  const key = `${deps.config.chain.id}:${address}`;
  if (!recipientIsContract.has(key)) {
    const code = await deps.chain.getCode({ address });
    recipientIsContract.set(key, Boolean(code && code !== "0x"));
  }
  return recipientIsContract.get(key) as boolean;
}

/**
 * Reads a payment from the server's own RPC and accepts it only if it succeeded on our chain, paid the expected
 * recipient at least the amount, came from the payer's verified wallet and has the configured confirmations.
 * The caller claims the hash (unique per chain) in the transaction that uses it.
 */
export async function verifyPayment(
  deps: Pick<Deps, "chain" | "config" | "log">,
  expected: Expectation,
): Promise<VerifiedPayment> {
  const chain = deps.config.chain;
  const hash = expected.txHash.toLowerCase() as Hash;
  try {
    const transaction = await deps.chain.getTransaction({ hash }).catch((error) => {
      if (isNotFound(error)) throw new HttpError(400, `No transaction with this hash was found on ${chain.name}.`);
      throw error;
    });
    // A legacy transaction signed without EIP-155 names no chain, so it could be replayed from another one.
    if (transaction.type === "legacy" && (transaction.v === 27n || transaction.v === 28n)) {
      throw new HttpError(
        400,
        "This transaction was signed without a chain id (a legacy transaction without EIP-155), so it could have been replayed from another chain. Send the payment again from your wallet.",
      );
    }
    const signedFor =
      transaction.chainId ?? (transaction.type === "legacy" ? Number((transaction.v - 35n) / 2n) : undefined);
    if (signedFor !== chain.id) {
      throw new HttpError(
        400,
        `This transaction is on chain ${signedFor}, not on ${chain.name} (chain id ${chain.id}).`,
      );
    }
    if (transaction.blockNumber === null) {
      throw new HttpError(400, "This transaction is still pending. Wait until it is confirmed, then submit again.");
    }
    const receipt = await deps.chain.getTransactionReceipt({ hash }).catch((error) => {
      if (isNotFound(error))
        throw new HttpError(400, "This transaction is still pending. Wait until it is confirmed, then submit again.");
      throw error;
    });
    if (receipt.status !== "success")
      throw new HttpError(400, "This transaction failed on-chain, so nothing was paid.");

    let payer: `0x${string}`;
    let amountWei: bigint;
    // Only the fee contract's own FeaturePaid event proves a payment: any other address with code (a contract, or a
    // wallet delegated by EIP-7702) could emit the same event with any payer and amount. Others are paid by transfer.
    if (isAddressEqual(expected.recipient, deps.config.feeRecipient) && (await isContract(deps, expected.recipient))) {
      const event = parseEventLogs({ abi: featuredFeeAbi, logs: receipt.logs, eventName: "FeaturePaid" }).find((log) =>
        isAddressEqual(log.address, expected.recipient),
      );
      if (!event) throw new HttpError(400, `This transaction did not pay ${expected.what} to ${expected.recipient}.`);
      payer = getAddress(event.args.payer);
      amountWei = event.args.amount;
    } else {
      if (!transaction.to || !isAddressEqual(transaction.to, expected.recipient)) {
        throw new HttpError(400, `This transaction did not pay ${expected.what} to ${expected.recipient}.`);
      }
      payer = getAddress(transaction.from);
      amountWei = transaction.value;
    }
    if (amountWei < expected.minAmountWei) {
      throw new HttpError(
        400,
        `This transaction paid ${formatEther(amountWei)} ETH, less than the ${formatEther(expected.minAmountWei)} ETH required.`,
      );
    }
    if (!isAddressEqual(payer, getAddress(expected.payerWallet))) {
      throw new HttpError(
        403,
        `This payment came from ${payer}, not from your verified wallet ${getAddress(expected.payerWallet)}.`,
      );
    }
    const confirmations = Number((await deps.chain.getBlockNumber({ cacheTime: 0 })) - receipt.blockNumber + 1n);
    if (confirmations < deps.config.minConfirmations) {
      throw new HttpError(
        400,
        `This transaction has ${confirmations} of ${deps.config.minConfirmations} confirmations. Wait a little, then submit again.`,
      );
    }
    return {
      chainId: chain.id,
      txHash: hash,
      payer,
      recipient: expected.recipient,
      amountWei,
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      confirmations,
      status: statusAt(confirmations, deps.config.finalityConfirmations),
    };
  } catch (error) {
    if (error instanceof HttpError) throw error;
    deps.log.warn({ err: error }, "payment check failed at the RPC");
    throw unreachable();
  }
}
