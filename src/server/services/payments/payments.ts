import { and, desc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { PageQuery } from "../../../shared/schemas/pagination.ts";
import type { Payment, Reward } from "../../../shared/schemas/payments.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { payments, posts, rewards, users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import type { AuthUser } from "../../plugins/auth.ts";
import { afterCursor, cursorKey, toPage } from "../cursor.ts";
import { findUser } from "../users/accounts.ts";
import { toUserSummary } from "../users/user-fields.ts";
import { verifyPayment } from "./verify-payment.ts";

const txUrl = (app: FastifyInstance, hash: string) =>
  app.config.explorerUrl ? `${app.config.explorerUrl}/tx/${hash}` : null;

export async function listPayments(
  app: FastifyInstance,
  query: { purpose?: "featured" | "tip" | undefined; limit: number; cursor?: string | undefined },
) {
  const rows = await app.db
    .select({
      payment: payments,
      cursorAt: cursorKey(payments.createdAt),
      user: { id: users.id, firstName: users.firstName, lastName: users.lastName, profilePhoto: users.profilePhoto },
      postTitle: posts.title,
    })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.userId))
    .leftJoin(posts, eq(posts.id, payments.postId))
    .where(
      and(
        query.purpose ? eq(payments.purpose, query.purpose) : undefined,
        afterCursor(payments.createdAt, payments.id, query.cursor),
      ),
    )
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(query.limit + 1);
  const page = toPage(rows, query.limit, (row) => [row.cursorAt, row.payment.id]);
  return {
    nextCursor: page.nextCursor,
    items: page.items.map(
      ({ payment, user, postTitle }): Payment => ({
        _id: payment.id,
        id: payment.id,
        purpose: payment.purpose,
        chainId: payment.chainId,
        txHash: payment.txHash,
        explorerUrl: txUrl(app, payment.txHash),
        payer: payment.payer,
        recipient: payment.recipient,
        amountWei: payment.amountWei,
        blockNumber: payment.blockNumber.toString(),
        confirmations: payment.confirmations,
        status: payment.status,
        user: toUserSummary(user),
        post: payment.postId && postTitle ? { id: payment.postId, title: postTitle } : null,
        createdAt: payment.createdAt.toISOString(),
      }),
    ),
  };
}

/** Who rewarded a user, newest first, with the tip each admin sent. */
export async function listRewards(app: FastifyInstance, userId: string, query: PageQuery) {
  await findUser(app, userId);
  const rows = await app.db
    .select({
      reward: rewards,
      cursorAt: cursorKey(rewards.createdAt),
      admin: { id: users.id, firstName: users.firstName, lastName: users.lastName, profilePhoto: users.profilePhoto },
      tip: { amountWei: payments.amountWei, txHash: payments.txHash },
    })
    .from(rewards)
    .innerJoin(users, eq(users.id, rewards.adminId))
    .leftJoin(payments, eq(payments.id, rewards.paymentId))
    .where(and(eq(rewards.userId, userId), afterCursor(rewards.createdAt, rewards.adminId, query.cursor)))
    .orderBy(desc(rewards.createdAt), desc(rewards.adminId))
    .limit(query.limit + 1);
  const page = toPage(rows, query.limit, (row) => [row.cursorAt, row.reward.adminId]);
  return {
    nextCursor: page.nextCursor,
    items: page.items.map(
      ({ reward, admin, tip }): Reward => ({
        _id: reward.adminId,
        id: reward.adminId,
        admin: toUserSummary(admin),
        tip: tip ? { ...tip, explorerUrl: txUrl(app, tip.txHash) } : null,
        createdAt: reward.createdAt.toISOString(),
      }),
    ),
  };
}

/** An admin's ETH tip to a user's verified wallet, verified like a fee and recorded as that admin's reward. */
export async function recordTip(app: FastifyInstance, admin: AuthUser, targetId: string, txHash: string) {
  if (admin.id === targetId) throw new HttpError(400, "You cannot tip yourself");
  const target = await findUser(app, targetId);
  if (!target.walletAddress || !target.walletVerifiedAt)
    throw new HttpError(400, "This user has no verified wallet to tip");
  const payment = await verifyPayment(app, {
    txHash,
    payerWallet: admin.walletVerifiedAt ? admin.walletAddress : null,
    recipient: target.walletAddress as `0x${string}`,
    minAmountWei: 1n,
    what: "the tip",
  });
  try {
    await app.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(payments)
        .values({ ...payment, amountWei: payment.amountWei.toString(), purpose: "tip", userId: admin.id })
        .returning({ id: payments.id });
      await tx
        .insert(rewards)
        .values({ userId: targetId, adminId: admin.id, paymentId: row?.id })
        .onConflictDoUpdate({ target: [rewards.userId, rewards.adminId], set: { paymentId: row?.id } });
    });
  } catch (error) {
    if (isUniqueViolation(error, "payments_chain_tx_key"))
      throw new HttpError(409, "This transaction hash was already recorded.");
    throw error;
  }
  return { isRewarded: true, rewardsCount: await app.db.$count(rewards, eq(rewards.userId, targetId)) };
}
