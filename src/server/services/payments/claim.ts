import type { Db } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { payments } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { recordEvent } from "../webhooks/events.ts";
import type { VerifiedPayment } from "./verify-payment.ts";

export const HASH_USED = {
  featured: "This transaction hash was already used for a featured post.",
  tip: "This transaction hash was already recorded.",
} as const;

/**
 * Records a verified payment inside the caller's transaction. The hash is unique per chain, so a payment serves one
 * post or one tip only, even when two requests race with it; the loser gets 409 and its transaction rolls back.
 */
export async function claimPayment(
  tx: Db,
  payment: VerifiedPayment,
  claim: { purpose: "featured" | "tip"; userId: string; postId?: string | undefined; recipientId?: string | undefined },
): Promise<string> {
  try {
    const [row] = await tx
      .insert(payments)
      .values({ ...payment, amountWei: payment.amountWei.toString(), ...claim })
      .returning();
    if (!row) throw new Error("payment was not recorded");
    // Final already when checked: the watcher will not see it turn final, so it is told here.
    if (row.status === "final") await paymentEvent(tx, row);
    return row.id;
  } catch (error) {
    if (isUniqueViolation(error, "payments_chain_tx_key")) throw new HttpError(409, HASH_USED[claim.purpose]);
    throw error;
  }
}

/** The explorer's page for a transaction, when an explorer is configured. */
export const explorerTxUrl = (config: { explorerUrl: string | null }, hash: string) =>
  config.explorerUrl ? `${config.explorerUrl}/tx/${hash}` : null;

/** A tip's recipient, or the author who paid the featured fee, hears that it is final (never before). */
export function paymentEvent(tx: Db, payment: typeof payments.$inferSelect) {
  const ownerId = payment.purpose === "tip" ? payment.recipientId : payment.userId;
  return recordEvent(tx, {
    type: payment.purpose === "tip" ? "tip.confirmed" : "featured.confirmed",
    ownerId,
    data: () => ({
      id: payment.id,
      postId: payment.postId,
      chainId: payment.chainId,
      txHash: payment.txHash,
      payer: payment.payer,
      amountWei: payment.amountWei,
    }),
  });
}
