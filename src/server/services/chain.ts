import { createPublicClient, http, type PublicClient } from "viem";
import type { AppConfig } from "../env.ts";

/** The server's own view of the chain: every payment check reads from this client, never from the browser. */
export function createChainClient(config: Pick<AppConfig, "chain" | "rpcUrl">): PublicClient {
  return createPublicClient({
    chain: config.chain,
    transport: http(config.rpcUrl, { timeout: 5000, retryCount: 1 }),
  }) as PublicClient;
}
