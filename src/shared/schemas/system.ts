import { z } from "zod";

export const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  database: z.enum(["ok", "down"]),
  chain: z.enum(["ok", "down"]),
});
export type Health = z.infer<typeof healthSchema>;

/** Public chain configuration for wallets; amounts are decimal strings of wei so no precision is lost. */
export const publicConfigSchema = z.object({
  chainId: z.number().int(),
  chainName: z.string(),
  nativeCurrency: z.object({ name: z.string(), symbol: z.string(), decimals: z.number().int() }),
  rpcUrl: z.string(),
  feeRecipient: z.string(),
  feeWei: z.string(),
  /** Confirmations the server waits for before it accepts a payment; the wallet UI waits for as many. */
  minConfirmations: z.number().int(),
  explorerUrl: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
