import { eq, lt, sql } from "drizzle-orm";
import type { Session } from "#shared/schemas/session.ts";
import { revokedSessions, users } from "../../db/schema.ts";
import type { Bus } from "../../infra/bus.ts";
import type { AuthUser } from "./auth-user.ts";
import type { Deps } from "./deps.ts";
import type { TokenClaims } from "./session-tokens.ts";
import { NOTHING_PUBLIC } from "./tags.ts";

/** What a login answers (stored by the client as `userInfo`), with a new bearer token. */
export async function sessionFor(
  deps: Pick<Deps, "tokens">,
  user: AuthUser,
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
    isModerator: user.isModerator,
    isVerified: user.isAccountVerified,
    walletAddress: user.walletAddress,
    loginMethod,
    token: await deps.tokens.sign(user),
  };
}

/** Where every instance hears that sessions of a user ended (a logout, a new password, a block). */
export const SESSIONS_CHANNEL = "sessions-ended";
export interface SessionsEnded {
  userId: string;
}
export const announceSessionsEnded = (bus: Pick<Bus, "publish">, userId: string) =>
  bus.publish(SESSIONS_CHANNEL, { userId } satisfies SessionsEnded);

/**
 * Ends this session on the server: its id is kept until the token would have expired anyway. A token from before
 * sessions had ids can only be ended with all the others.
 */
export async function logout(deps: Pick<Deps, "db" | "bus" | "changed">, user: AuthUser, session: TokenClaims) {
  const now = new Date();
  await deps.db.delete(revokedSessions).where(lt(revokedSessions.expiresAt, now));
  if (session.sessionId) {
    await deps.db
      .insert(revokedSessions)
      .values({ sessionId: session.sessionId, expiresAt: session.expiresAt })
      .onConflictDoNothing();
  } else {
    await deps.db
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, user.id));
  }
  deps.changed(NOTHING_PUBLIC);
  announceSessionsEnded(deps.bus, user.id);
}
