import crypto from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { oneTimeTokens } from "../db/schema.ts";

type Purpose = (typeof oneTimeTokens.$inferInsert)["purpose"];

const hash = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

/** Issues a token (stored hashed) and revokes the user's earlier unused tokens for the same purpose. */
export async function issueToken(db: Db, userId: string, purpose: Purpose, ttlMs: number): Promise<string> {
  const token = crypto.randomBytes(32).toString("base64url");
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx
      .update(oneTimeTokens)
      .set({ usedAt: now })
      .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)));
    await tx
      .insert(oneTimeTokens)
      .values({ userId, purpose, tokenHash: hash(token), expiresAt: new Date(now.getTime() + ttlMs) });
  });
  return token;
}

/**
 * Marks the token used and returns its user, or null when it is unknown, used or expired. One UPDATE does the
 * check and the claim, so of two parallel uses exactly one wins.
 */
export async function consumeToken(db: Db, token: string, purpose: Purpose): Promise<string | null> {
  const [row] = await db
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, hash(token)),
        eq(oneTimeTokens.purpose, purpose),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, new Date()),
      ),
    )
    .returning({ userId: oneTimeTokens.userId });
  return row?.userId ?? null;
}
