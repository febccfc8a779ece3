import crypto from "node:crypto";
import type { AppConfig } from "../../env.ts";
import { HttpError } from "../../http-error.ts";

/**
 * A suspended account cannot sign in, so its suspension mail carries a link that appeals without signing in:
 * `/appeal/<action>/<token>`, the token an HMAC-SHA256 of the decision under a key derived from JWT_SECRET. It
 * reaches that one decision only, and nobody can make one without the key.
 */
const keyOf = (secret: string) => crypto.createHmac("sha256", secret).update("penchain:appeal").digest();

export const appealToken = (config: Pick<AppConfig, "jwtSecret">, actionId: string) =>
  crypto
    .createHmac("sha256", keyOf(config.jwtSecret ?? ""))
    .update(`appeal:${actionId}`)
    .digest("hex")
    .slice(0, 32);

export const appealPath = (config: Pick<AppConfig, "jwtSecret">, actionId: string) =>
  `/appeal/${actionId}/${appealToken(config, actionId)}`;

export const INVALID_APPEAL_LINK = "This appeal link is not valid";

export function checkAppealToken(config: Pick<AppConfig, "jwtSecret">, actionId: string, token: string) {
  const [given, expected] = [Buffer.from(token), Buffer.from(appealToken(config, actionId))];
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected))
    throw new HttpError(403, INVALID_APPEAL_LINK);
}
