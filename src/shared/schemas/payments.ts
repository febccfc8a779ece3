import { z } from "zod";
import { TX_HASH_REGEX } from "../constants.ts";
import { TX_HASH_MESSAGE } from "./posts.ts";
import { userSummarySchema } from "./users.ts";

export const tipInputSchema = z.object({
  transectionHash: z.string({ error: TX_HASH_MESSAGE }).trim().regex(TX_HASH_REGEX, TX_HASH_MESSAGE),
});

export const paymentListQuerySchema = z.object({
  purpose: z.enum(["featured", "tip"]).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
});

/** A verified on-chain payment as admins see it; wei and block numbers are decimal strings. */
export const paymentSchema = z.object({
  _id: z.string(),
  id: z.string(),
  purpose: z.enum(["featured", "tip"]),
  chainId: z.number().int(),
  txHash: z.string(),
  explorerUrl: z.string().nullable(),
  payer: z.string(),
  recipient: z.string(),
  amountWei: z.string(),
  blockNumber: z.string(),
  confirmations: z.number().int(),
  /** "reorged": the transaction left the chain after it was accepted; a featured post it paid for lost the flag. */
  status: z.enum(["confirming", "final", "reorged"]),
  user: userSummarySchema,
  post: z.object({ id: z.string(), title: z.string() }).nullable(),
  createdAt: z.string(),
});
export type Payment = z.infer<typeof paymentSchema>;

/** An admin's reward to a user (one per admin, so the admin's id is the reward's id), with the ETH tip if any. */
export const rewardSchema = z.object({
  _id: z.string(),
  id: z.string(),
  admin: userSummarySchema,
  tip: z.object({ amountWei: z.string(), txHash: z.string(), explorerUrl: z.string().nullable() }).nullable(),
  createdAt: z.string(),
});
export type Reward = z.infer<typeof rewardSchema>;
