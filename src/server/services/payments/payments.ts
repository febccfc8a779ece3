import { and, desc, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Payment } from "#shared/schemas/payments.ts";
import { payments, posts, users } from "../../db/schema.ts";
import { afterCursor, cursorKey, toPage } from "../../infra/cursor.ts";
import type { Deps } from "../core/deps.ts";
import { toUserSummary, userSummaryColumns } from "../core/user-fields.ts";
import { explorerTxUrl } from "./claim.ts";

const recipients = alias(users, "recipients");

/** Verified payments for the admin Payments screen, newest first, with whom a tip paid. */
export async function listPayments(
  deps: Pick<Deps, "db" | "config">,
  query: { purpose?: "featured" | "tip" | undefined; limit: number; cursor?: string | undefined },
) {
  const rows = await deps.db
    .select({
      payment: payments,
      cursorAt: cursorKey(payments.createdAt),
      user: userSummaryColumns,
      recipientUser: {
        id: recipients.id,
        firstName: recipients.firstName,
        lastName: recipients.lastName,
        profilePhoto: recipients.profilePhoto,
      },
      postTitle: posts.title,
    })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.userId))
    .leftJoin(recipients, eq(recipients.id, payments.recipientId))
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
      ({ payment, user, recipientUser, postTitle }): Payment => ({
        _id: payment.id,
        id: payment.id,
        purpose: payment.purpose,
        chainId: payment.chainId,
        txHash: payment.txHash,
        explorerUrl: explorerTxUrl(deps.config, payment.txHash),
        payer: payment.payer,
        recipient: payment.recipient,
        amountWei: payment.amountWei,
        blockNumber: payment.blockNumber.toString(),
        confirmations: payment.confirmations,
        status: payment.status,
        user: toUserSummary(user),
        recipientUser: recipientUser?.id ? toUserSummary(recipientUser) : null,
        post: payment.postId && postTitle ? { id: payment.postId, title: postTitle } : null,
        createdAt: payment.createdAt.toISOString(),
      }),
    ),
  };
}
