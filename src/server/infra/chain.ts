import {
  createPublicClient,
  http,
  type PublicClient,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from "viem";
import type { AppConfig } from "../env.ts";

/** The server's own view of the chain: every payment check reads from this client, never from the browser. */
export function createChainClient(config: Pick<AppConfig, "chain" | "rpcUrl">): PublicClient {
  return createPublicClient({
    chain: config.chain,
    transport: http(config.rpcUrl, { timeout: 5000, retryCount: 1 }),
  }) as PublicClient;
}

/** The RPC does not know this transaction (or its receipt): never sent, not mined yet, or gone in a reorg. */
export function isNotFound(error: unknown) {
  return error instanceof TransactionNotFoundError || error instanceof TransactionReceiptNotFoundError;
}
