import crypto from "node:crypto";
import { eq, getTableColumns, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { can, type Permission } from "#shared/permissions.ts";
import { revokedSessions, users } from "../db/schema.ts";
import { HttpError } from "../http-error.ts";
import { type AuthUser, BLOCKED, lockedOut, SESSION_ENDED } from "../services/core/auth-user.ts";
import { createSessionTokens, type SessionTokens, type TokenClaims } from "../services/core/session-tokens.ts";
import { needsSignIn } from "./route-marks.ts";

declare module "fastify" {
  interface FastifyInstance {
    tokens: SessionTokens;
    /** preHandler: a signed-in, unblocked user is required. */
    requireUser: (request: FastifyRequest) => Promise<void>;
    /** preHandler: an admin is required. */
    requireAdmin: (request: FastifyRequest) => Promise<void>;
    /** A guard for one named permission (src/shared/permissions.ts). */
    requirePermission: (permission: Permission) => (request: FastifyRequest) => Promise<void>;
    /**
     * preHandler for public reads only: identifies the user when a valid token is sent, anonymous otherwise. What a
     * token says is remembered for IDENTIFY_TTL_MS, so a reader's page costs no token check or query.
     */
    identifyUser: (request: FastifyRequest) => Promise<void>;
    /** How many verified tokens identifyUser remembers now. */
    identifiedCount: () => number;
  }
  interface FastifyRequest {
    user: AuthUser | null;
    /** The verified token of the signed-in user. */
    session: TokenClaims | null;
  }
}

/** How long a public read may act on a token's earlier check; writes always check afresh. */
const IDENTIFY_TTL_MS = 2000;
const IDENTIFY_MAX_TOKENS = 10_000;

/**
 * Bearer tokens carry only the user id and token version; who the user is (admin, blocked) is read from the
 * database on every request, so changes take effect at once.
 */
export function registerAuth(app: FastifyInstance, secret: string) {
  app.decorate("tokens", createSessionTokens(secret));
  app.decorateRequest("user", null);
  app.decorateRequest("session", null);

  // Every write and every signed-in reader's first read asks this: its SQL is built once (see db/client.ts for how
  // PostgreSQL then prepares it once per connection). A token without a session id was never logged out.
  const sessionUser = app.db
    .select({
      ...getTableColumns(users),
      loggedOut: sql<boolean>`exists (select 1 from ${revokedSessions} where ${revokedSessions.sessionId} = ${sql.placeholder("sessionId")})`,
    })
    .from(users)
    .where(eq(users.id, sql.placeholder("userId")))
    .prepare("session_user");

  async function load(request: FastifyRequest): Promise<AuthUser | null> {
    // A personal access token was checked, with its owner, before any guard ran (plugins/token-auth.ts).
    if (request.apiToken) return request.user;
    const header = request.headers.authorization;
    if (!header) return null;
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    const claims = token ? await app.tokens.verify(token) : null;
    if (!claims) throw new HttpError(401, SESSION_ENDED);
    const [row] = await sessionUser.execute({ userId: claims.userId, sessionId: claims.sessionId });
    if (!row || row.tokenVersion !== claims.version || row.loggedOut) throw new HttpError(401, SESSION_ENDED);
    if (lockedOut(row)) throw new HttpError(403, BLOCKED);
    const { loggedOut: _, ...user } = row;
    request.session = claims;
    return user;
  }

  // Keyed by a hash of a token that was verified, so junk headers pin no memory; failures are never remembered.
  const identified = new Map<string, { user: AuthUser; session: TokenClaims; until: number }>();
  app.decorate("identifyUser", async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    if (!header || request.apiToken) return;
    const now = Date.now();
    const key = crypto.createHash("sha256").update(header).digest("base64url");
    const known = identified.get(key);
    if (known && known.until > now) {
      request.user = known.user;
      request.session = known.session;
      return;
    }
    identified.delete(key);
    request.user = await load(request).catch(() => null);
    if (!request.user || !request.session) return;
    if (identified.size >= IDENTIFY_MAX_TOKENS) identified.delete(identified.keys().next().value as string);
    identified.set(key, { user: request.user, session: request.session, until: now + IDENTIFY_TTL_MS });
  });
  app.decorate("identifiedCount", () => identified.size);
  app.decorate(
    "requireUser",
    needsSignIn(async (request: FastifyRequest) => {
      request.user = await load(request);
      if (!request.user) throw new HttpError(401, "Not authorized: please log in.");
    }),
  );
  app.decorate(
    "requireAdmin",
    needsSignIn(async (request: FastifyRequest) => {
      await app.requireUser(request);
      if (!request.user?.isAdmin) throw new HttpError(403, "Only admins can do this.");
    }),
  );
  app.decorate("requirePermission", (permission: Permission) =>
    needsSignIn(async (request: FastifyRequest) => {
      await app.requireUser(request);
      if (!can(request.user ?? null, permission))
        throw new HttpError(
          403,
          permission === "moderate" ? "Only moderators can do this." : "Only admins can do this.",
        );
    }),
  );
}

/** The signed-in user of a route guarded by requireUser. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new HttpError(401, "Not authorized: please log in.");
  return request.user;
}
