import { hash, verify } from "@node-rs/argon2";
import { eq, lt, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { getAddress } from "viem";
import { RESET_TOKEN_TTL_MS } from "../../../shared/constants.ts";
import type { Session } from "../../../shared/schemas/session.ts";
import type { ChangePasswordInput, LoginInput, RegisterInput } from "../../../shared/schemas/users.ts";
import type { Db } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { revokedSessions, users } from "../../db/schema.ts";
import { HttpError, validationError } from "../../http-error.ts";
import { BLOCKED } from "../../plugins/auth.ts";
import { resetPasswordMail, verifyEmailMail } from "../mail-templates.ts";
import type { Delivery } from "../mailer.ts";
import { consumeToken, issueToken } from "../one-time-tokens.ts";
import type { TokenClaims } from "../session-tokens.ts";
import { verifySiwe } from "../siwe.ts";
import { toPrivateUser, type UserWithType, userColumns } from "./user-fields.ts";

type UserRow = typeof users.$inferSelect;
const VERIFY_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
export const EMAIL_TAKEN = "An account with this email already exists";
export const WALLET_TAKEN = "This wallet is already verified by another account.";
export const RESET_SENT = "Email is successfully sent to your email. Verify it within 10 minutes.";
// Verified against when the e-mail is unknown, so both answers take as long.
const DUMMY_HASH = hash("penchain-timing-equaliser");

export const normaliseWallet = (address: string) => getAddress(address.toLowerCase());

export async function sessionFor(
  app: FastifyInstance,
  user: UserRow,
  loginMethod: Session["loginMethod"] = "password",
): Promise<Session> {
  return {
    _id: user.id,
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    profilePhoto: user.profilePhoto,
    isAdmin: user.isAdmin,
    isVerified: user.isAccountVerified,
    walletAddress: user.walletAddress,
    loginMethod,
    token: await app.tokens.sign(user),
  };
}

export async function findUser(app: FastifyInstance, id: string): Promise<UserWithType> {
  const [user] = await app.db.select(userColumns).from(users).where(eq(users.id, id));
  if (!user) throw new HttpError(404, "User not found");
  return user;
}

/** A signed SIWE message sent with the registration verifies the wallet at once; it must be the address given. */
async function verifiedAt(app: FastifyInstance, input: RegisterInput, tx: Db): Promise<Date | null> {
  if (!input.walletProof) return null;
  const signer = await verifySiwe(app, input.walletProof, tx);
  if (signer !== normaliseWallet(input.walletAddress)) {
    throw new HttpError(400, "The wallet that signed is not the Wallet Address entered. Sign with that wallet again.");
  }
  return new Date();
}

export async function register(app: FastifyInstance, input: RegisterInput) {
  const passwordHash = await hash(input.password);
  try {
    const user = await app.db.transaction(async (tx) => {
      // Serialises registrations so exactly one first account becomes the admin.
      await tx.execute(sql`select pg_advisory_xact_lock(7337002)`);
      // Claimed here, so a registration refused below (a taken e-mail, say) leaves the signature usable.
      const walletVerifiedAt = await verifiedAt(app, input, tx);
      const [row] = await tx
        .insert(users)
        .values({
          firstName: input.firstName,
          lastName: input.lastName,
          email: input.email,
          passwordHash,
          walletAddress: normaliseWallet(input.walletAddress),
          walletVerifiedAt,
          isAdmin: sql`not exists (select 1 from ${users})`,
        })
        .returning();
      return row;
    });
    if (!user) throw new Error("registration returned no row");
    return toPrivateUser({ ...user, accountType: "Starter Account" });
  } catch (error) {
    if (isUniqueViolation(error, "users_email_lower_key")) throw new HttpError(409, EMAIL_TAKEN);
    if (isUniqueViolation(error, "users_verified_wallet_key")) throw new HttpError(409, WALLET_TAKEN);
    throw error;
  }
}

export async function login(app: FastifyInstance, input: LoginInput): Promise<Session> {
  const [user] = await app.db.select().from(users).where(sql`lower(${users.email}) = lower(${input.email})`);
  const valid = await verify(user?.passwordHash ?? (await DUMMY_HASH), input.password).catch(() => false);
  if (!user || !valid) throw new HttpError(401, "Invalid email or password");
  if (user.isBlocked) throw new HttpError(403, BLOCKED);
  return sessionFor(app, user);
}

/** Re-authentication for changes a stolen session must not make on its own. */
export async function checkCurrentPassword(user: UserRow, password: string | undefined) {
  if (!password) throw validationError([{ path: ["currentPassword"], message: "Current Password is required" }]);
  if (!(await verify(user.passwordHash, password).catch(() => false))) {
    throw validationError([{ path: ["currentPassword"], message: "Current Password is incorrect" }]);
  }
}

/** Sets a new password and ends every earlier session; answers with a fresh session for the caller. */
export async function changePassword(app: FastifyInstance, caller: UserRow, input: ChangePasswordInput) {
  await checkCurrentPassword(caller, input.currentPassword);
  const [user] = await app.db
    .update(users)
    .set({
      passwordHash: await hash(input.password),
      tokenVersion: sql`${users.tokenVersion} + 1`,
      updatedAt: new Date(),
    })
    .where(eq(users.id, caller.id))
    .returning();
  if (!user) throw new HttpError(404, "User not found");
  return sessionFor(app, user);
}

/**
 * Ends this session on the server: its id is kept until the token would have expired anyway. A token from before
 * sessions had ids can only be ended with all the others.
 */
export async function logout(app: FastifyInstance, user: UserRow, session: TokenClaims) {
  const now = new Date();
  await app.db.delete(revokedSessions).where(lt(revokedSessions.expiresAt, now));
  if (session.sessionId) {
    await app.db
      .insert(revokedSessions)
      .values({ sessionId: session.sessionId, expiresAt: session.expiresAt })
      .onConflictDoNothing();
  } else {
    await app.db
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, user.id));
  }
}

export async function requestPasswordReset(app: FastifyInstance, email: string): Promise<void> {
  const [user] = await app.db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
  if (!user || user.isBlocked) return;
  const token = await issueToken(app.db, user.id, "reset-password", RESET_TOKEN_TTL_MS);
  const link = `${app.config.publicUrl}/reset-password/${token}`;
  if (app.mailer.kind === "outbox") app.log.info({ to: user.email, link }, "password reset link");
  await app.mailer.send({ to: user.email, ...resetPasswordMail(user.firstName, link) });
}

export async function resetPassword(app: FastifyInstance, token: string, password: string): Promise<void> {
  const passwordHash = await hash(password);
  await app.db.transaction(async (tx) => {
    const userId = await consumeToken(tx, token, "reset-password");
    if (!userId) throw new HttpError(400, "This reset link is invalid, used or expired. Please request a new one.");
    await tx
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, userId));
  });
}

export async function requestVerification(app: FastifyInstance, user: UserRow): Promise<Delivery> {
  if (user.isAccountVerified) throw new HttpError(400, "Your account is already verified");
  const token = await issueToken(app.db, user.id, "verify-email", VERIFY_TOKEN_TTL_MS);
  const link = `${app.config.publicUrl}/verify-account/${token}`;
  if (app.mailer.kind === "outbox") app.log.info({ to: user.email, link }, "account verification link");
  return app.mailer.send({ to: user.email, ...verifyEmailMail(user.firstName, link) });
}

export async function verifyAccount(app: FastifyInstance, caller: UserRow, token: string) {
  await app.db.transaction(async (tx) => {
    const userId = await consumeToken(tx, token, "verify-email");
    if (userId !== caller.id)
      throw new HttpError(400, "This verification link is invalid, used or expired. Please request a new one.");
    await tx.update(users).set({ isAccountVerified: true, updatedAt: new Date() }).where(eq(users.id, userId));
  });
  return toPrivateUser(await findUser(app, caller.id));
}
