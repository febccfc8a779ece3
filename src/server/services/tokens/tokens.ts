import crypto from "node:crypto";
import { and, count, desc, eq, sql } from "drizzle-orm";
import { can } from "#shared/permissions.ts";
import {
  type ApiToken,
  type CreatedToken,
  type CreateTokenInput,
  TOKENS_PER_USER_MAX,
} from "#shared/schemas/tokens.ts";
import { isStaffScope, type Scope, STAFF_SCOPES, TOKEN_PREFIX } from "#shared/scopes.ts";
import type { Db } from "../../db/client.ts";
import { apiTokens, users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { type AuthUser, BLOCKED, lockedOut } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { NOTHING_PUBLIC } from "../core/tags.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** last_used_at is written at most this often per token: a busy script costs one write a minute, not one a call. */
export const LAST_USED_PRECISION_MS = 60 * 1000;

export const TOKEN_NOT_VALID = "This token is not valid: it was revoked, it expired, or it never existed.";
export const TOKEN_OWNER_CANNOT = "This token's owner no longer holds the role its scopes need.";
export const TOKEN_OWNER_LEAVING = "This token's account is being closed.";
export const STAFF_SCOPE_REFUSED = "Only staff can give a token the moderation or admin scope.";
export const TOO_MANY_TOKENS = `You have ${TOKENS_PER_USER_MAX} tokens already: revoke one first.`;
export const TOKEN_NOT_FOUND = "Token not found.";

/** `pcn_` and 256 random bits: 43 base64url characters. */
const TOKEN_SHAPE = /^pcn_[A-Za-z0-9_-]{43}$/;

export const hashToken = (token: string) => crypto.createHash("sha256").update(token).digest("base64url");

/** Whether the owner may hold (still) every staff scope listed. */
const mayHold = (user: AuthUser, scopes: readonly Scope[]) =>
  scopes.every((scope) => !isStaffScope(scope) || can(user, STAFF_SCOPES[scope]));

const toToken = (row: typeof apiTokens.$inferSelect): ApiToken => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes as Scope[],
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  expiresAt: row.expiresAt?.toISOString() ?? null,
});

/** Makes a token for its owner (a session, never a token: the route sees to it); the secret is in this answer only. */
export async function createToken(
  deps: Pick<Deps, "db" | "changed">,
  user: AuthUser,
  input: CreateTokenInput,
): Promise<CreatedToken> {
  const scopes = [...new Set(input.scopes)];
  if (!mayHold(user, scopes)) throw new HttpError(403, STAFF_SCOPE_REFUSED);
  const token = `${TOKEN_PREFIX}${crypto.randomBytes(32).toString("base64url")}`;
  const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * DAY_MS) : null;
  const row = await deps.db.transaction(async (tx) => {
    // The owner's row is locked so two parallel requests cannot both pass the cap.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for("update");
    const [held] = await tx.select({ n: count() }).from(apiTokens).where(eq(apiTokens.userId, user.id));
    if ((held?.n ?? 0) >= TOKENS_PER_USER_MAX) throw new HttpError(409, TOO_MANY_TOKENS);
    const [inserted] = await tx
      .insert(apiTokens)
      .values({ userId: user.id, name: input.name, scopes, tokenHash: hashToken(token), expiresAt })
      .returning();
    return inserted as typeof apiTokens.$inferSelect;
  });
  deps.changed(NOTHING_PUBLIC);
  return { id: row.id, name: row.name, scopes, token, expiresAt: row.expiresAt?.toISOString() ?? null };
}

/** The owner's tokens, newest first, without their secrets (only hashes are kept). */
export async function listTokens(deps: Pick<Deps, "db">, user: AuthUser) {
  const rows = await deps.db
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.userId, user.id))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  return { items: rows.map(toToken) };
}

/** Revokes one of the owner's tokens: it stops at its next request. Another's token is as good as missing. */
export async function revokeToken(deps: Pick<Deps, "db" | "changed">, user: AuthUser, id: string) {
  const [row] = await deps.db
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, user.id)))
    .returning();
  if (!row) throw new HttpError(404, TOKEN_NOT_FOUND);
  deps.changed(NOTHING_PUBLIC);
  return toToken(row);
}

/** A request's token once checked: who it acts for and what it may reach. */
export interface TokenCaller {
  id: string;
  scopes: readonly Scope[];
}

/**
 * Checks a `pcn_…` secret on every request: the token and its owner are read afresh, so a revoked or expired token,
 * or an owner blocked, suspended, closing or no longer staff, stops at once. One prepared statement per call; the
 * last use is written at most once a minute.
 */
export function createTokenAuth(db: Db, log: Pick<Deps["log"], "warn">) {
  const byHash = db
    .select({ token: apiTokens, user: users })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, sql.placeholder("hash")))
    .prepare("api_token_user");

  function touch(token: typeof apiTokens.$inferSelect, now: Date) {
    if (token.lastUsedAt && now.getTime() - token.lastUsedAt.getTime() < LAST_USED_PRECISION_MS) return;
    // Guarded in SQL too, so instances racing on one token write it once.
    void db
      .update(apiTokens)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiTokens.id, token.id),
          sql`(${apiTokens.lastUsedAt} is null or ${apiTokens.lastUsedAt} < ${new Date(now.getTime() - LAST_USED_PRECISION_MS)})`,
        ),
      )
      .catch((error: unknown) => log.warn({ err: error }, "could not record a token's last use"));
  }

  return {
    async authenticate(secret: string): Promise<{ token: TokenCaller; user: AuthUser }> {
      if (!TOKEN_SHAPE.test(secret)) throw new HttpError(401, TOKEN_NOT_VALID);
      const [row] = await byHash.execute({ hash: hashToken(secret) });
      const now = new Date();
      if (!row || (row.token.expiresAt && row.token.expiresAt <= now)) throw new HttpError(401, TOKEN_NOT_VALID);
      const { token, user } = row;
      if (lockedOut(user)) throw new HttpError(403, BLOCKED);
      if (user.closingAt || user.closedAt) throw new HttpError(403, TOKEN_OWNER_LEAVING);
      const scopes = token.scopes as Scope[];
      if (!mayHold(user, scopes)) throw new HttpError(403, TOKEN_OWNER_CANNOT);
      touch(token, now);
      return { token: { id: token.id, scopes }, user };
    },
  };
}
