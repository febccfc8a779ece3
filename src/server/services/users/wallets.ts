import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { SiweProof } from "../../../shared/schemas/siwe.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { BLOCKED } from "../../plugins/auth.ts";
import { verifySiwe } from "../siwe.ts";
import { findUser, sessionFor, WALLET_TAKEN } from "./accounts.ts";
import { toPrivateUser } from "./user-fields.ts";

export async function loginWithWallet(app: FastifyInstance, proof: SiweProof) {
  const address = await verifySiwe(app, proof);
  const [user] = await app.db
    .select()
    .from(users)
    .where(sql`lower(${users.walletAddress}) = lower(${address}) and ${users.walletVerifiedAt} is not null`);
  if (!user) {
    throw new HttpError(
      404,
      "No account has verified this wallet. Log in with your password and verify the wallet from your profile.",
    );
  }
  if (user.isBlocked) throw new HttpError(403, BLOCKED);
  return sessionFor(app, user, "wallet");
}

/** Links the signer's wallet to the user as verified. */
export async function linkWallet(app: FastifyInstance, userId: string, proof: SiweProof) {
  const address = await verifySiwe(app, proof);
  try {
    await app.db
      .update(users)
      .set({ walletAddress: address, walletVerifiedAt: new Date(), updatedAt: new Date() })
      .where(eq(users.id, userId));
  } catch (error) {
    if (isUniqueViolation(error, "users_verified_wallet_key")) throw new HttpError(409, WALLET_TAKEN);
    throw error;
  }
  return toPrivateUser(await findUser(app, userId));
}
