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
  rpcUrl: z.string(),
  feeRecipient: z.string(),
  feeWei: z.string(),
  explorerUrl: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
