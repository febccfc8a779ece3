import { eq, sql } from "drizzle-orm";
import type { RegisterInput } from "#shared/schemas/users.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { verifyEmailMail } from "../../infra/mail-templates.ts";
import type { Delivery } from "../../infra/mailer.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { findUser } from "../core/find-user.ts";
import { newHandle } from "../core/handles.ts";
import { refuseLinksFromNewAccounts } from "../core/new-accounts.ts";
import { NOTHING_PUBLIC } from "../core/tags.ts";
import { toPrivateUser } from "../core/user-fields.ts";
import { refuseFlagged } from "../moderation/filter.ts";
import { consumeToken, issueToken } from "../one-time-tokens.ts";
import { recordEvent } from "../webhooks/events.ts";
import { assertUncommonPassword } from "./password-rules.ts";
import { hashPassword } from "./passwords.ts";
import { verifySiwe } from "./siwe.ts";
import { assertChecksum, normaliseWallet, WALLET_TAKEN } from "./wallets.ts";

const VERIFY_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
export const EMAIL_TAKEN = "An account with this email already exists";

/** A signed SIWE message sent with the registration verifies the wallet at once; it must be the address given. */
async function verifiedAt(deps: Pick<Deps, "db" | "config">, input: RegisterInput): Promise<Date | null> {
  if (!input.walletProof) return null;
  const signer = await verifySiwe(deps, input.walletProof);
  if (signer !== normaliseWallet(input.walletAddress)) {
    throw new HttpError(400, "The wallet that signed is not the Wallet Address entered. Sign with that wallet again.");
  }
  return new Date();
}

/** docs/specification.md §Register. The first account ever registered becomes the admin (docs/product.md). */
export async function register(deps: Pick<Deps, "db" | "config" | "changed">, input: RegisterInput) {
  assertChecksum(input.walletAddress);
  refuseLinksFromNewAccounts(null, { firstName: input.firstName, lastName: input.lastName });
  await refuseFlagged(deps, { firstName: input.firstName, lastName: input.lastName });
  await assertUncommonPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  try {
    const user = await deps.db.transaction(async (tx) => {
      // Serialises registrations so exactly one first account becomes the admin.
      await tx.execute(sql`select pg_advisory_xact_lock(7337002)`);
      // Claimed here, so a registration refused below (a taken e-mail, say) leaves the signature usable.
      const walletVerifiedAt = await verifiedAt({ ...deps, db: tx }, input);
      const [row] = await tx
        .insert(users)
        .values({
          firstName: input.firstName,
          lastName: input.lastName,
          handle: await newHandle(tx, input.firstName, input.lastName),
          email: input.email,
          passwordHash,
          walletAddress: normaliseWallet(input.walletAddress),
          walletVerifiedAt,
          isAdmin: sql`not exists (select 1 from ${users})`,
        })
        .returning();
      if (row)
        await recordEvent(tx, {
          type: "user.registered",
          ownerId: null,
          data: () => ({ id: row.id, firstName: row.firstName, lastName: row.lastName, handle: row.handle }),
        });
      return row;
    });
    if (!user) throw new Error("registration returned no row");
    deps.changed(NOTHING_PUBLIC);
    return toPrivateUser({ ...user, accountType: "Starter Account" });
  } catch (error) {
    if (isUniqueViolation(error, "users_email_lower_key")) throw new HttpError(409, EMAIL_TAKEN);
    if (isUniqueViolation(error, "users_verified_wallet_key")) throw new HttpError(409, WALLET_TAKEN);
    throw error;
  }
}

export async function requestVerification(
  deps: Pick<Deps, "db" | "mailer" | "config" | "log" | "changed">,
  user: AuthUser,
): Promise<Delivery> {
  if (user.isAccountVerified) throw new HttpError(400, "Your account is already verified");
  const token = await issueToken(deps.db, user.id, "verify-email", VERIFY_TOKEN_TTL_MS);
  deps.changed(NOTHING_PUBLIC);
  const link = `${deps.config.publicUrl}/verify-account/${token}`;
  if (deps.mailer.kind === "outbox") deps.log.info({ to: user.email, link }, "account verification link");
  return deps.mailer.send({ to: user.email, ...verifyEmailMail(user.firstName, link) });
}

export async function verifyAccount(deps: Pick<Deps, "db" | "changed">, caller: AuthUser, token: string) {
  await deps.db.transaction(async (tx) => {
    const userId = await consumeToken(tx, token, "verify-email");
    if (userId !== caller.id)
      throw new HttpError(400, "This verification link is invalid, used or expired. Please request a new one.");
    await tx.update(users).set({ isAccountVerified: true, updatedAt: new Date() }).where(eq(users.id, userId));
  });
  deps.changed(NOTHING_PUBLIC);
  return toPrivateUser(await findUser(deps, caller.id));
}
