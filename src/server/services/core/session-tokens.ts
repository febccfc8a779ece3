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

/** How many verified tokens are remembered (the oldest go first): every signed-in request shows its token. */
const MAX_VERIFIED = 10_000;

/**
 * Session tokens: the user id, the user's token version (bumping it ends every session) and a session id (a logout
 * records it until the token would have expired). What a token's signature says never changes, so a token verified
 * once is remembered until it expires: every signed-in request shows one, and checking its signature (WebCrypto's
 * HMAC, on libuv's threads) cost each write a trip off the event loop. Whether its session still stands (version,
 * logout, blocking) is the database's to say, on every request (plugins/auth.ts).
 */
export function createSessionTokens(secret: string, lifetime = SESSION_LIFETIME) {
  // One key for every token: given the secret's bytes, jose imports them into WebCrypto at each call.
  const key = crypto.webcrypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
  // Only tokens that passed are kept, so made-up ones pin no memory.
  const verified = new Map<string, TokenClaims>();
  const remember = (token: string, claims: TokenClaims) => {
    if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value as string);
    verified.set(token, claims);
    return claims;
  };
  return {
    sign: async (user: { id: string; tokenVersion: number }) =>
      new SignJWT({ ver: user.tokenVersion })
        .setProtectedHeader({ alg: ALGORITHM })
        .setSubject(user.id)
        .setIssuer(ISSUER)
        .setJti(crypto.randomUUID())
        .setIssuedAt()
        .setExpirationTime(lifetime)
        .sign(await key),
    /** Rejects anything not signed by us with the one pinned algorithm. */
    verify: async (token: string): Promise<TokenClaims | null> => {
      const known = verified.get(token);
      if (known) {
        if (known.expiresAt.getTime() > Date.now()) return known;
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, await key, { algorithms: [ALGORITHM], issuer: ISSUER });
        if (typeof payload.sub !== "string" || typeof payload.ver !== "number" || !payload.exp) return null;
        return remember(token, {
          userId: payload.sub,
          version: payload.ver,
          sessionId: payload.jti ?? null,
          expiresAt: new Date(payload.exp * 1000),
        });
      } catch {
        return null;
      }
    },
  };
}
export type SessionTokens = ReturnType<typeof createSessionTokens>;
