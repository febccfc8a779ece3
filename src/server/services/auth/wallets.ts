import { eq, sql } from "drizzle-orm";
import { getAddress } from "viem";
import { parseSiweMessage } from "viem/siwe";
import type { LinkWalletInput, SiweProof } from "#shared/schemas/siwe.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { users } from "../../db/schema.ts";
import { HttpError, validationError } from "../../http-error.ts";
import { walletLinkedMail } from "../../infra/mail-templates.ts";
import { type AuthUser, BLOCKED, lockedOut } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { findUser } from "../core/find-user.ts";
import { sessionFor } from "../core/sessions.ts";
import { cacheTags } from "../core/tags.ts";
import { toPrivateUser } from "../core/user-fields.ts";
import { keepAccount } from "../leaving/closing.ts";
import { checkCurrentPassword } from "./passwords.ts";
import { verifySiwe } from "./siwe.ts";

export const WALLET_TAKEN = "This wallet is already verified by another account.";

export const normaliseWallet = (address: string) => getAddress(address.toLowerCase());

export const BAD_CHECKSUM =
  "Wallet Address has a wrong checksum (its mix of capital letters is not EIP-55's): copy it again from your wallet";

/**
 * An address as typed: all lower or all upper case carries no checksum; mixed case must be EIP-55's, or a letter was
 * mistyped and the address may be someone else's.
 */
export function assertChecksum(address: string) {
  const hex = address.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return;
  if (getAddress(address.toLowerCase()) !== address) {
    throw validationError([{ path: ["walletAddress"], message: BAD_CHECKSUM }]);
  }
}

/** Login by wallet (docs/product.md, "Wallets"): the signer must be a wallet an account has verified. */
export async function loginWithWallet(
  deps: Pick<Deps, "db" | "config" | "tokens" | "mailer" | "changed">,
  proof: SiweProof,
) {
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
  if (lockedOut(user)) throw new HttpError(403, BLOCKED);
  await keepAccount(deps, user);
  return sessionFor(deps, user, "wallet");
}

/**
 * Links the signer's wallet to the user as verified. A verified wallet logs in without a password, so replacing
 * one asks for the current password (a stolen session alone cannot plant its own), and the owner is told by mail
 * whenever a new wallet is linked.
 */
export async function linkWallet(
  deps: Pick<Deps, "db" | "config" | "mailer" | "changed">,
  user: AuthUser,
  input: LinkWalletInput,
) {
  const sameWallet = (address: string) => user.walletAddress?.toLowerCase() === address.toLowerCase();
  if (user.walletVerifiedAt && !sameWallet(parseSiweMessage(input.message).address ?? "")) {
    await checkCurrentPassword(user, input.currentPassword);
  }
  const address = await verifySiwe(deps, input);
  try {
    await deps.db
      .update(users)
      .set({ walletAddress: address, walletVerifiedAt: new Date(), updatedAt: new Date() })
      .where(eq(users.id, user.id));
  } catch (error) {
    if (isUniqueViolation(error, "users_verified_wallet_key")) throw new HttpError(409, WALLET_TAKEN);
    throw error;
  }
  // A post's page shows its author's verified wallet, where readers' tips go.
  deps.changed([cacheTags.user(user.id)]);
  if (!(user.walletVerifiedAt && sameWallet(address))) {
    await deps.mailer.queue({ to: user.email, ...walletLinkedMail(user.firstName, address, deps.config.publicUrl) });
  }
  return toPrivateUser(await findUser(deps, user.id));
}
