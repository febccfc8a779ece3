import { eq, sql } from "drizzle-orm";
import { getAddress } from "viem";
import type { SiweProof } from "../../../shared/schemas/siwe.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import type { Deps } from "../deps.ts";
import { findUser } from "../users/find-user.ts";
import { toPrivateUser } from "../users/user-fields.ts";
import { BLOCKED } from "./auth-user.ts";
import { sessionFor } from "./sessions.ts";
import { verifySiwe } from "./siwe.ts";

export const WALLET_TAKEN = "This wallet is already verified by another account.";

export const normaliseWallet = (address: string) => getAddress(address.toLowerCase());

/** Login by wallet (PRODUCT.md, added calls): the signer must be a wallet an account has verified. */
export async function loginWithWallet(deps: Pick<Deps, "db" | "config" | "tokens">, proof: SiweProof) {
  const address = await verifySiwe(deps, proof);
  const [user] = await deps.db
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
  return sessionFor(deps, user, "wallet");
}

/** Links the signer's wallet to the user as verified. */
export async function linkWallet(deps: Pick<Deps, "db" | "config">, userId: string, proof: SiweProof) {
  const address = await verifySiwe(deps, proof);
  try {
    await deps.db
      .update(users)
      .set({ walletAddress: address, walletVerifiedAt: new Date(), updatedAt: new Date() })
      .where(eq(users.id, userId));
  } catch (error) {
    if (isUniqueViolation(error, "users_verified_wallet_key")) throw new HttpError(409, WALLET_TAKEN);
    throw error;
  }
  return toPrivateUser(await findUser(deps, userId));
}
