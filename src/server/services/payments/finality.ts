import { and, asc, eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Hash, PublicClient } from "viem";
import type { Db } from "../../db/client.ts";
import { payments, posts } from "../../db/schema.ts";
import { isNotFound } from "../../infra/chain.ts";
import { periodic } from "../../infra/periodic.ts";
import type { Deps } from "../core/deps.ts";
import { cacheTags } from "../core/tags.ts";
import { notify } from "../notifications/notify.ts";
import { paymentEvent } from "./claim.ts";

const CHECK_EVERY_MS = 60_000;
const BATCH = 50;

/** The status a payment with this many confirmations has, once it is on chain. */
export const statusAt = (confirmations: number, finality: number) =>
  confirmations >= finality ? ("final" as const) : ("confirming" as const);

/**
 * Payments are accepted at MIN_CONFIRMATIONS, but a block that young can still leave the chain in a reorg. This
 * re-reads every payment that is not final yet from the server's RPC until it has `finality` confirmations. One
 * whose transaction is gone (or now failed) is marked "reorged", and a featured post it paid for stops being
 * featured; both show on the admin's Payments screen. Checking twice (several instances) is harmless.
 */
export function createPaymentWatcher(deps: {
  db: Db;
  chain: PublicClient;
  finality: number;
  log: FastifyBaseLogger;
  /** What the featured payment's author is told with. */
  notifier: Pick<Deps, "db" | "config" | "mailer" | "bus" | "log" | "changed">;
}) {
  const { db, chain, finality, log } = deps;

  async function recheckOne(payment: typeof payments.$inferSelect, head: bigint) {
    const receipt = await chain.getTransactionReceipt({ hash: payment.txHash as Hash }).catch((error) => {
      if (isNotFound(error)) return null;
      throw error;
    });
    const now = new Date();
    if (receipt?.status !== "success") {
      await db.transaction(async (tx) => {
        await tx.update(payments).set({ status: "reorged", checkedAt: now }).where(eq(payments.id, payment.id));
        if (payment.purpose === "featured" && payment.postId) {
          await tx.update(posts).set({ isFeatured: false }).where(eq(posts.id, payment.postId));
        }
      });
      // The post it paid for shows the payment (a tip) or leaves the featured places.
      if (payment.postId) {
        const lists = payment.purpose === "featured" ? [cacheTags.posts] : [];
        deps.notifier.changed([...lists, cacheTags.post(payment.postId)]);
      }
      log.warn({ txHash: payment.txHash, purpose: payment.purpose }, "a verified payment left the chain");
      await tellPayer(payment, "payment_reorged");
      return "reorged" as const;
    }
    const confirmations = Number(head - receipt.blockNumber + 1n);
    const status = statusAt(confirmations, finality);
    const turnedFinal = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(payments)
        .set({
          blockNumber: receipt.blockNumber,
          blockHash: receipt.blockHash,
          confirmations,
          status,
          checkedAt: now,
        })
        .where(and(eq(payments.id, payment.id), eq(payments.status, "confirming")))
        .returning({ status: payments.status });
      // Once final, never before: a tip or fee that could still leave the chain is no event.
      if (row?.status === "final") await paymentEvent(tx, payment);
      return row?.status === "final";
    });
    if (turnedFinal) await tellPayer(payment, "payment_confirmed");
    return status;
  }

  /** A featured post's author hears that their payment is final, or left the chain. */
  async function tellPayer(payment: typeof payments.$inferSelect, kind: "payment_confirmed" | "payment_reorged") {
    if (payment.purpose !== "featured") return;
    await notify(deps.notifier, {
      kind,
      recipientId: payment.userId,
      actorId: null,
      postId: payment.postId,
      paymentId: payment.id,
      group: payment.id,
    });
  }

  const watcher = {
    /** Re-reads the payments checked longest ago; an unreachable RPC leaves them as they are, for the next round. */
    async recheck() {
      const due = await db
        .select()
        .from(payments)
        .where(eq(payments.status, "confirming"))
        .orderBy(sql`${payments.checkedAt} asc nulls first`, asc(payments.createdAt))
        .limit(BATCH);
      const counts = { confirming: 0, final: 0, reorged: 0 };
      if (due.length === 0) return counts;
      const head = await chain.getBlockNumber({ cacheTime: 0 });
      for (const payment of due) counts[await recheckOne(payment, head)]++;
      return counts;
    },
  };
  return {
    ...watcher,
    ...periodic(() => watcher.recheck(), {
      everyMs: CHECK_EVERY_MS,
      onError: (error) => log.warn({ err: error }, "payment re-check failed"),
    }),
  };
}
export type PaymentWatcher = ReturnType<typeof createPaymentWatcher>;
