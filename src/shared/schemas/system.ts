import { z } from "../zod.ts";

export const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  database: z.enum(["ok", "down"]),
  chain: z.enum(["ok", "down"]),
});
export type Health = z.infer<typeof healthSchema>;

/** Public chain configuration for wallets; amounts are decimal strings of wei so no precision is lost. */
export const publicConfigSchema = z.object({
  chainId: z.int(),
  chainName: z.string(),
  nativeCurrency: z.object({ name: z.string(), symbol: z.string(), decimals: z.int() }),
  rpcUrl: z.string(),
  feeRecipient: z.string(),
  feeWei: z.string(),
  /** Confirmations the server waits for before it accepts a payment; the wallet UI waits for as many. */
  minConfirmations: z.int(),
  explorerUrl: z.nullable(z.string()),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
