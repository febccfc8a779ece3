import { hash, verify } from "@node-rs/argon2";
import { eq, sql } from "drizzle-orm";
import { RESET_TOKEN_TTL_MS } from "#shared/constants.ts";
import type { Session } from "#shared/schemas/session.ts";
import type { ChangePasswordInput, LoginInput } from "#shared/schemas/users.ts";
import { users } from "../../db/schema.ts";
import { HttpError, validationError } from "../../http-error.ts";
import { passwordChangedMail, resetPasswordMail } from "../../infra/mail-templates.ts";
import { type AuthUser, BLOCKED, lockedOut } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { announceSessionsEnded, sessionFor } from "../core/sessions.ts";
import { cacheTags, NOTHING_PUBLIC } from "../core/tags.ts";
import { keepAccount } from "../leaving/closing.ts";
import { consumeToken, issueToken } from "../one-time-tokens.ts";
import { assertUncommonPassword } from "./password-rules.ts";

// Verified against when the e-mail is unknown, so both answers take as long.
const DUMMY_HASH = hash("penchain-timing-equaliser");

export const hashPassword = (password: string) => hash(password);

export async function login(
  deps: Pick<Deps, "db" | "tokens" | "mailer" | "changed">,
  input: LoginInput,
): Promise<Session> {
  const [user] = await deps.db.select().from(users).where(sql`lower(${users.email}) = lower(${input.email})`);
  const valid = await verify(user?.passwordHash ?? (await DUMMY_HASH), input.password).catch(() => false);
  if (!user || !valid) throw new HttpError(401, "Invalid email or password");
  if (lockedOut(user)) throw new HttpError(403, BLOCKED);
  await keepAccount(deps, user);
  return sessionFor(deps, user);
}

/** Re-authentication for changes a stolen session must not make on its own. */
export async function checkCurrentPassword(user: AuthUser, password: string | undefined) {
  if (!password) throw validationError([{ path: ["currentPassword"], message: "Current Password is required" }]);
  if (!(await verify(user.passwordHash, password).catch(() => false))) {
    throw validationError([{ path: ["currentPassword"], message: "Current Password is incorrect" }]);
  }
}

/** A new password's columns: every earlier session ends; with `unlinkWallet`, so does wallet login. */
const newPassword = async (password: string, unlinkWallet: boolean | undefined) => ({
  passwordHash: await hash(password),
  tokenVersion: sql`${users.tokenVersion} + 1`,
  updatedAt: new Date(),
  ...(unlinkWallet ? { walletVerifiedAt: null } : {}),
});

/** Tells the owner their password changed, and how to take the account back if it was not them. */
const tellOwner = (
  deps: Pick<Deps, "mailer" | "config">,
  user: { email: string; firstName: string },
  change: Parameters<typeof passwordChangedMail>[2],
) => deps.mailer.queue({ to: user.email, ...passwordChangedMail(user.firstName, deps.config.publicUrl, change) });

/** Sets a new password and ends every earlier session; answers with a fresh session for the caller. */
export async function changePassword(
  deps: Pick<Deps, "db" | "tokens" | "mailer" | "config" | "bus" | "changed">,
  caller: AuthUser,
  input: ChangePasswordInput,
) {
  await checkCurrentPassword(caller, input.currentPassword);
  await assertUncommonPassword(input.password);
  const [user] = await deps.db
    .update(users)
    .set(await newPassword(input.password, input.unlinkWallet))
    .where(eq(users.id, caller.id))
    .returning();
  if (!user) throw new HttpError(404, "User not found");
  deps.changed(walletShown(user.id, input.unlinkWallet));
  announceSessionsEnded(deps.bus, user.id);
  await tellOwner(deps, user, {
    how: "changed",
    walletUnlinked: Boolean(input.unlinkWallet && caller.walletVerifiedAt),
  });
  return sessionFor(deps, user);
}

/** A password's change shows nowhere public, unless it unlinks the wallet readers' tips go to. */
const walletShown = (userId: string, unlinkWallet: boolean | undefined) =>
  unlinkWallet ? [cacheTags.user(userId)] : NOTHING_PUBLIC;

/** Asks for a reset link to be mailed after the answer has gone (`requestPasswordReset`). */
export function requestPasswordResetLater(
  deps: Pick<Deps, "db" | "mailer" | "config" | "log" | "changed">,
  email: string,
) {
  deps.changed(NOTHING_PUBLIC);
  deps.mailer.later(() => requestPasswordReset(deps, email));
}

/**
 * Mails a reset link to a known, unblocked account. The caller runs this after answering (mailer.later), so a
 * known and an unknown address take the same time to answer.
 */
export async function requestPasswordReset(deps: Pick<Deps, "db" | "mailer" | "config" | "log">, email: string) {
  const [user] = await deps.db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
  if (!user || lockedOut(user)) return;
  const token = await issueToken(deps.db, user.id, "reset-password", RESET_TOKEN_TTL_MS);
  const link = `${deps.config.publicUrl}/reset-password/${token}`;
  if (deps.mailer.kind === "outbox") deps.log.info({ to: user.email, link }, "password reset link");
  await deps.mailer.send({ to: user.email, ...resetPasswordMail(user.firstName, link) });
}

export async function resetPassword(
  deps: Pick<Deps, "db" | "mailer" | "config" | "bus" | "changed">,
  input: { token: string; password: string; unlinkWallet?: boolean | undefined },
): Promise<void> {
  await assertUncommonPassword(input.password);
  const columns = await newPassword(input.password, input.unlinkWallet);
  const { user, hadWallet } = await deps.db.transaction(async (tx) => {
    const userId = await consumeToken(tx, input.token, "reset-password");
    if (!userId) throw new HttpError(400, "This reset link is invalid, used or expired. Please request a new one.");
    const [before] = await tx.select({ verifiedAt: users.walletVerifiedAt }).from(users).where(eq(users.id, userId));
    const [user] = await tx.update(users).set(columns).where(eq(users.id, userId)).returning();
    return { user, hadWallet: Boolean(before?.verifiedAt) };
  });
  if (!user) return;
  deps.changed(walletShown(user.id, input.unlinkWallet));
  announceSessionsEnded(deps.bus, user.id);
  await tellOwner(deps, user, { how: "reset", walletUnlinked: Boolean(input.unlinkWallet && hadWallet) });
}
