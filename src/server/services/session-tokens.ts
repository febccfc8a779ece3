import { jwtVerify, SignJWT } from "jose";

const ISSUER = "penchain";
const ALGORITHM = "HS256";

export interface TokenClaims {
  userId: string;
  version: number;
}

/** Stateless session tokens: only the user id and the user's token version, so bumping the version ends them. */
export function createSessionTokens(secret: string, lifetime = "7d") {
  const key = new TextEncoder().encode(secret);
  return {
    sign: (user: { id: string; tokenVersion: number }) =>
      new SignJWT({ ver: user.tokenVersion })
        .setProtectedHeader({ alg: ALGORITHM })
        .setSubject(user.id)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(lifetime)
        .sign(key),
    /** Rejects anything not signed by us with the one pinned algorithm. */
    verify: async (token: string): Promise<TokenClaims | null> => {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: [ALGORITHM], issuer: ISSUER });
        if (typeof payload.sub !== "string" || typeof payload.ver !== "number") return null;
        return { userId: payload.sub, version: payload.ver };
      } catch {
        return null;
      }
    },
  };
}
export type SessionTokens = ReturnType<typeof createSessionTokens>;
