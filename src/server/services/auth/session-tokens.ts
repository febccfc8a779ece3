import crypto from "node:crypto";
import { jwtVerify, SignJWT } from "jose";

const ISSUER = "penchain";
const ALGORITHM = "HS256";

export interface TokenClaims {
  userId: string;
  version: number;
  /** Names this session, so logout can end it alone; tokens issued before sessions had ids have none. */
  sessionId: string | null;
  expiresAt: Date;
}

export const SESSION_LIFETIME = "7d";

/**
 * Session tokens: the user id, the user's token version (bumping it ends every session) and a session id (a logout
 * records it until the token would have expired).
 */
export function createSessionTokens(secret: string, lifetime = SESSION_LIFETIME) {
  const key = new TextEncoder().encode(secret);
  return {
    sign: (user: { id: string; tokenVersion: number }) =>
      new SignJWT({ ver: user.tokenVersion })
        .setProtectedHeader({ alg: ALGORITHM })
        .setSubject(user.id)
        .setIssuer(ISSUER)
        .setJti(crypto.randomUUID())
        .setIssuedAt()
        .setExpirationTime(lifetime)
        .sign(key),
    /** Rejects anything not signed by us with the one pinned algorithm. */
    verify: async (token: string): Promise<TokenClaims | null> => {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: [ALGORITHM], issuer: ISSUER });
        if (typeof payload.sub !== "string" || typeof payload.ver !== "number" || !payload.exp) return null;
        return {
          userId: payload.sub,
          version: payload.ver,
          sessionId: payload.jti ?? null,
          expiresAt: new Date(payload.exp * 1000),
        };
      } catch {
        return null;
      }
    },
  };
}
export type SessionTokens = ReturnType<typeof createSessionTokens>;
