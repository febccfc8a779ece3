import { TX_HASH_REGEX } from "../constants.ts";
import { z } from "../zod.ts";
import { TX_HASH_MESSAGE } from "./posts.ts";
import { tipTotalsSchema } from "./tips.ts";
import { userSummarySchema } from "./users.ts";

export const tipInputSchema = z.object({
  transectionHash: z.string({ error: TX_HASH_MESSAGE }).check(z.trim(), z.regex(TX_HASH_REGEX, TX_HASH_MESSAGE)),
});

/** A reader's tip to an author (docs/product.md, "Following, notifications and tips"): the transaction that paid their wallet. */
export const readerTipInputSchema = z.object({
  txHash: z.string({ error: TX_HASH_MESSAGE }).check(z.trim(), z.regex(TX_HASH_REGEX, TX_HASH_MESSAGE)),
});

/** What a reader may choose to tip, in ETH, besides an amount of their own. */
export const TIP_CHOICES_ETH = ["0.001", "0.005", "0.01"] as const;

/** A tip to an author, as anyone sees it: who, how much, and where it stands on chain. */
export const tipSchema = z.object({
  _id: z.string(),
  id: z.string(),
  from: userSummarySchema,
  amountWei: z.string(),
  txHash: z.string(),
  explorerUrl: z.nullable(z.string()),
  /** "reorged": it left the chain after it was accepted, and no longer counts. */
  status: z.enum(["confirming", "final", "reorged"]),
  createdAt: z.string(),
});
export type Tip = z.infer<typeof tipSchema>;

export const tipPageSchema = z.object({
  items: z.array(tipSchema),
  nextCursor: z.nullable(z.string()),
  totals: tipTotalsSchema,
});

export const paymentListQuerySchema = z.object({
  purpose: z.optional(z.enum(["featured", "tip"])),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 20),
  cursor: z.optional(z.string().check(z.maxLength(200))),
});

/** A verified on-chain payment as admins see it; wei and block numbers are decimal strings. */
export const paymentSchema = z.object({
  _id: z.string(),
  id: z.string(),
  purpose: z.enum(["featured", "tip"]),
  chainId: z.int(),
  txHash: z.string(),
  explorerUrl: z.nullable(z.string()),
  payer: z.string(),
  recipient: z.string(),
  amountWei: z.string(),
  blockNumber: z.string(),
  confirmations: z.int(),
  /** "reorged": the transaction left the chain after it was accepted; a featured post it paid for lost the flag. */
  status: z.enum(["confirming", "final", "reorged"]),
  user: userSummarySchema,
  /** A tip's author (or rewarded user): whose wallet it paid. */
  recipientUser: z.nullable(userSummarySchema),
  post: z.nullable(z.object({ id: z.string(), title: z.string() })),
  createdAt: z.string(),
});
export type Payment = z.infer<typeof paymentSchema>;

/** An admin's reward to a user (one per admin, so the admin's id is the reward's id), with the ETH tip if any. */
export const rewardSchema = z.object({
  _id: z.string(),
  id: z.string(),
  admin: userSummarySchema,
  tip: z.nullable(z.object({ amountWei: z.string(), txHash: z.string(), explorerUrl: z.nullable(z.string()) })),
  createdAt: z.string(),
});
export type Reward = z.infer<typeof rewardSchema>;
