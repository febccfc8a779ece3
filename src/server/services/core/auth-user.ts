import type { users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";

/** The signed-in user as a route hands it to a service: the whole row, read afresh on every request. */
export type AuthUser = typeof users.$inferSelect;

export const SESSION_ENDED = "Your session has ended. Please log in again.";
export const BLOCKED = "Your account has been blocked. Please contact an admin.";

/** An admin's block and a moderators' suspension each lock an account out; neither lifts the other. */
export const lockedOut = (user: Pick<AuthUser, "isBlocked" | "suspendedAt">) =>
  user.isBlocked || user.suspendedAt !== null;

export const VERIFY_WALLET_FIRST =
  "Verify your wallet first: sign the message offered on your profile, then pay from that wallet.";

/** The wallet a user pays from: only a verified one proves who paid (docs/product.md, "Posts and payments"). */
export function payingWallet(user: AuthUser): `0x${string}` {
  if (!user.walletAddress || !user.walletVerifiedAt) throw new HttpError(403, VERIFY_WALLET_FIRST);
  return user.walletAddress as `0x${string}`;
}
