import crypto from "node:crypto";
import { type SQL, sql } from "drizzle-orm";

/**
 * Links that work without logging in (a mail's unsubscribe link) carry an HMAC-SHA256 of what they name, under a
 * key derived from JWT_SECRET, cut to 128 bits: nobody can make one for anything else without the key. Each kind of
 * link signs its own prefix (`unsubscribe:…`, `subscription:…`), so one kind's token never passes for another's.
 */
const keyOf = (secret: string) => crypto.createHmac("sha256", secret).update("penchain:unsubscribe").digest();
const TOKEN_LENGTH = 32;

export const signLink = (secret: string, text: string) =>
  crypto.createHmac("sha256", keyOf(secret)).update(text).digest("hex").slice(0, TOKEN_LENGTH);

/**
 * The same token computed by the database, for mail written by one INSERT … SELECT: HMAC-SHA256 from PostgreSQL's
 * own sha256() (the key's inner and outer pads are passed in, so the key itself never reaches SQL as such).
 */
export function signLinkSql(secret: string, text: SQL) {
  const block = Buffer.alloc(64);
  keyOf(secret).copy(block);
  const pad = (byte: number) => Buffer.from(block.map((value) => value ^ byte)).toString("hex");
  return sql<string>`left(encode(sha256(decode(${pad(0x5c)}, 'hex') || sha256(decode(${pad(0x36)}, 'hex')
    || convert_to(${text}, 'UTF8'))), 'hex'), ${TOKEN_LENGTH})`;
}

/** Throws `refusal` unless `given` is the token `expected` (compared in constant time). */
export function checkLinkToken(given: string | undefined, expected: string, refusal: () => Error) {
  const [a, b] = [Buffer.from(given ?? ""), Buffer.from(expected)];
  if (a.length !== b.length || !crypto.timingSafeEqual(a, b)) throw refusal();
}
