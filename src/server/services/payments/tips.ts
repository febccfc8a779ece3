import { and, desc, eq, ne, sql } from "drizzle-orm";
import { CANNOT_TIP } from "#shared/schemas/blocks.ts";
import type { Tip } from "#shared/schemas/payments.ts";
import type { TipTotals } from "#shared/schemas/tips.ts";
import { payments, posts, users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { afterCursor, cursorKey, toPage } from "../../infra/cursor.ts";
import { refuseIfBlocked } from "../blocks/blocks.ts";
import { type AuthUser, payingWallet } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { findUser } from "../core/find-user.ts";
import { isReachable, POST_NOT_FOUND } from "../core/post-queries.ts";
import { cacheTags, NOTHING_PUBLIC } from "../core/tags.ts";
import { toUserSummary, userSummaryColumns } from "../core/user-fields.ts";
import { notify } from "../notifications/notify.ts";
import { claimPayment, explorerTxUrl } from "./claim.ts";
import { verifyPayment } from "./verify-payment.ts";

export const NO_TIP_WALLET = "This author has no verified wallet to tip yet.";

/** Tips that count: every tip but those that left the chain. */
const counting = ne(payments.status, "reorged");

/** A post's or a user's tips that count: how many, and their total in wei. */
export async function tipTotals(
  deps: Pick<Deps, "db">,
  of: { postId: string } | { recipientId: string },
): Promise<TipTotals> {
  const [row] = await deps.db
    .select({ count: sql<number>`count(*)::int`, totalWei: sql<string>`coalesce(sum(${payments.amountWei}), 0)::text` })
    .from(payments)
    .where(
      and(
        eq(payments.purpose, "tip"),
        counting,
        "postId" in of ? eq(payments.postId, of.postId) : eq(payments.recipientId, of.recipientId),
      ),
    );
  return row ?? { count: 0, totalWei: "0" };
}

/**
 * A reader's tip to an author (on a post of theirs, or from their profile), verified on the server's own RPC like a
 * fee: a successful transfer on our chain, from the reader's verified wallet, to the author's verified wallet, not
 * used before (claimed in the transaction that records it), then followed until final by the payment watcher. The
 * author is told.
 */
export async function tipAuthor(
  deps: Pick<Deps, "db" | "config" | "chain" | "log" | "mailer" | "bus" | "changed">,
  reader: AuthUser,
  target: { postId: string } | { userId: string },
  txHash: string,
) {
  const postId = "postId" in target ? target.postId : undefined;
  const authorId = postId ? await publishedPostAuthor(deps, postId) : (target as { userId: string }).userId;
  if (authorId === reader.id) throw new HttpError(400, "You cannot tip yourself");
  await refuseIfBlocked(deps, { ownerId: authorId, actorId: reader.id }, CANNOT_TIP);
  const author = await findUser(deps, authorId);
  if (!author.walletAddress || !author.walletVerifiedAt) throw new HttpError(400, NO_TIP_WALLET);
  const payment = await verifyPayment(deps, {
    txHash,
    payerWallet: payingWallet(reader),
    recipient: author.walletAddress as `0x${string}`,
    minAmountWei: 1n,
    what: "the tip",
  });
  const paymentId = await deps.db.transaction((tx) =>
    claimPayment(tx, payment, { purpose: "tip", userId: reader.id, postId, recipientId: authorId }),
  );
  // A post's page shows its tips; a profile's are read uncached.
  deps.changed(postId ? [cacheTags.post(postId)] : NOTHING_PUBLIC);
  await notify(deps, { kind: "tip", recipientId: authorId, actorId: reader.id, postId: postId ?? null, paymentId });
  return tipTotals(deps, postId ? { postId } : { recipientId: authorId });
}

async function publishedPostAuthor(deps: Pick<Deps, "db">, postId: string) {
  const [post] = await deps.db
    .select({ userId: posts.userId })
    .from(posts)
    .where(and(eq(posts.id, postId), isReachable));
  if (!post) throw new HttpError(404, POST_NOT_FOUND);
  return post.userId;
}

/** A published post's tips, newest first, with the totals that count. */
export async function listPostTips(
  deps: Pick<Deps, "db" | "config">,
  postId: string,
  query: { limit: number; cursor?: string | undefined },
) {
  await publishedPostAuthor(deps, postId);
  const rows = await deps.db
    .select({ payment: payments, cursorAt: cursorKey(payments.createdAt), from: userSummaryColumns })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.userId))
    .where(
      and(
        eq(payments.postId, postId),
        eq(payments.purpose, "tip"),
        afterCursor(payments.createdAt, payments.id, query.cursor),
      ),
    )
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(query.limit + 1);
  const page = toPage(rows, query.limit, (row) => [row.cursorAt, row.payment.id]);
  return {
    items: page.items.map(
      ({ payment, from }): Tip => ({
        _id: payment.id,
        id: payment.id,
        from: toUserSummary(from),
        amountWei: payment.amountWei,
        txHash: payment.txHash,
        explorerUrl: explorerTxUrl(deps.config, payment.txHash),
        status: payment.status,
        createdAt: payment.createdAt.toISOString(),
      }),
    ),
    nextCursor: page.nextCursor,
    totals: await tipTotals(deps, { postId }),
  };
}
