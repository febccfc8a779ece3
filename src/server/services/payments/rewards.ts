import { and, desc, eq } from "drizzle-orm";
import type { PageQuery } from "#shared/schemas/pagination.ts";
import type { Reward } from "#shared/schemas/payments.ts";
import { payments, rewards, users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { afterCursor, cursorKey, toPage } from "../../infra/cursor.ts";
import { type AuthUser, payingWallet } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { findUser } from "../core/find-user.ts";
import { NOTHING_PUBLIC } from "../core/tags.ts";
import { toUserSummary, userSummaryColumns } from "../core/user-fields.ts";
import { notify, withdraw } from "../notifications/notify.ts";
import { claimPayment, explorerTxUrl } from "./claim.ts";
import { verifyPayment } from "./verify-payment.ts";

/**
 * Rewards: an admin marks a user as rewarded (docs/specification.md §Users list (admin)), optionally with an ETH tip to
 * the user's verified wallet, verified on-chain like the featured fee.
 */

const rewardsCount = (deps: Pick<Deps, "db">, userId: string) => deps.db.$count(rewards, eq(rewards.userId, userId));

/** Each admin rewards a user at most once; a second call takes the reward back. */
export async function toggleReward(
  deps: Pick<Deps, "db" | "config" | "mailer" | "bus" | "log" | "changed">,
  admin: AuthUser,
  targetId: string,
) {
  if (admin.id === targetId) throw new HttpError(400, "You cannot reward yourself");
  await findUser(deps, targetId);
  const removed = await deps.db
    .delete(rewards)
    .where(and(eq(rewards.userId, targetId), eq(rewards.adminId, admin.id)))
    .returning();
  // Rewards show on profiles and the admin's screens, which are read uncached.
  deps.changed(NOTHING_PUBLIC);
  const reward = { kind: "reward" as const, recipientId: targetId, actorId: admin.id };
  if (removed.length === 0) {
    await deps.db.insert(rewards).values({ userId: targetId, adminId: admin.id }).onConflictDoNothing();
    await notify(deps, reward);
  } else {
    await withdraw(deps, reward);
  }
  return { isRewarded: removed.length === 0, rewardsCount: await rewardsCount(deps, targetId) };
}

/** Who rewarded a user, newest first, with the tip each admin sent. */
export async function listRewards(deps: Pick<Deps, "db" | "config">, userId: string, query: PageQuery) {
  await findUser(deps, userId);
  const rows = await deps.db
    .select({
      reward: rewards,
      cursorAt: cursorKey(rewards.createdAt),
      admin: userSummaryColumns,
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
        tip: tip ? { ...tip, explorerUrl: explorerTxUrl(deps.config, tip.txHash) } : null,
        createdAt: reward.createdAt.toISOString(),
      }),
    ),
  };
}

/** An admin's ETH tip to a user's verified wallet, verified like a fee and recorded as that admin's reward. */
export async function recordTip(
  deps: Pick<Deps, "db" | "config" | "chain" | "log" | "mailer" | "bus" | "changed">,
  admin: AuthUser,
  targetId: string,
  txHash: string,
) {
  if (admin.id === targetId) throw new HttpError(400, "You cannot tip yourself");
  const target = await findUser(deps, targetId);
  if (!target.walletAddress || !target.walletVerifiedAt)
    throw new HttpError(400, "This user has no verified wallet to tip");
  const payment = await verifyPayment(deps, {
    txHash,
    payerWallet: payingWallet(admin),
    recipient: target.walletAddress as `0x${string}`,
    minAmountWei: 1n,
    what: "the tip",
  });
  const paymentId = await deps.db.transaction(async (tx) => {
    const id = await claimPayment(tx, payment, { purpose: "tip", userId: admin.id, recipientId: targetId });
    await tx
      .insert(rewards)
      .values({ userId: targetId, adminId: admin.id, paymentId: id })
      .onConflictDoUpdate({ target: [rewards.userId, rewards.adminId], set: { paymentId: id } });
    return id;
  });
  deps.changed(NOTHING_PUBLIC);
  await notify(deps, { kind: "tip", recipientId: targetId, actorId: admin.id, paymentId });
  return { isRewarded: true, rewardsCount: await rewardsCount(deps, targetId) };
}
