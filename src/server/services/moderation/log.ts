import { webcrypto } from "node:crypto";
import { and, asc, desc, eq, lt, sql } from "drizzle-orm";
import {
  GENESIS_HASH,
  hashEntry,
  headMessage,
  type LatestHead,
  type LogEntry,
  type LogHead,
  latestMessage,
} from "#shared/moderation-log.ts";
import type { Db } from "../../db/client.ts";
import { federationKeys, moderationLog, moderationLogHeads } from "../../db/schema.ts";

/** The site actor's Ed25519 key (the one its fediverse proofs use, published on its actor) signs the heads. */
const SITE_ACTOR = "site";
const ALGORITHM = "Ed25519";
const LOG_LOCK = sql`select pg_advisory_xact_lock(hashtext('penchain:moderation-log'))`;

async function signingKey(db: Db) {
  let [row] = await db
    .select()
    .from(federationKeys)
    .where(and(eq(federationKeys.actor, SITE_ACTOR), eq(federationKeys.algorithm, ALGORITHM)));
  if (!row) {
    const pair = (await webcrypto.subtle.generateKey({ name: ALGORITHM }, true, ["sign", "verify"])) as CryptoKeyPair;
    // Another instance (or the federator) may make it at the same time: the first one written is everyone's.
    await db
      .insert(federationKeys)
      .values({
        actor: SITE_ACTOR,
        algorithm: ALGORITHM,
        privateKey: await webcrypto.subtle.exportKey("jwk", pair.privateKey),
        publicKey: await webcrypto.subtle.exportKey("jwk", pair.publicKey),
      })
      .onConflictDoNothing();
    [row] = await db
      .select()
      .from(federationKeys)
      .where(and(eq(federationKeys.actor, SITE_ACTOR), eq(federationKeys.algorithm, ALGORITHM)));
  }
  if (!row) throw new Error("no signing key for the moderation log");
  return row;
}

async function sign(db: Db, message: string) {
  const key = await webcrypto.subtle.importKey(
    "jwk",
    (await signingKey(db)).privateKey as JsonWebKey,
    ALGORITHM,
    false,
    ["sign"],
  );
  const signed = await webcrypto.subtle.sign(ALGORITHM, key, new TextEncoder().encode(message));
  return Buffer.from(signed).toString("base64url");
}

/** The public half of the key the heads are signed with, as a JWK anyone can check them with. */
export async function logPublicKey(db: Db) {
  const { kty, crv, x } = (await signingKey(db)).publicKey as { kty: string; crv: string; x: string };
  return { kty, crv, x };
}

const toEntry = (row: typeof moderationLog.$inferSelect): LogEntry => ({
  seq: row.seq,
  at: row.at.toISOString(),
  targetKind: row.targetKind,
  action: row.action,
  rule: row.rule,
  prevHash: row.prevHash,
  hash: row.hash,
});

/**
 * Adds an entry after the last one, in the caller's transaction (the action it records commits with it), and signs
 * the day's new head. Entries are written one at a time, in turn.
 */
export async function appendLog(tx: Db, what: { targetKind: string; action: string; rule: string }) {
  await tx.execute(LOG_LOCK);
  const [last] = await tx.select().from(moderationLog).orderBy(desc(moderationLog.seq)).limit(1);
  const at = new Date(Math.max(Date.now(), last ? last.at.getTime() : 0));
  const unhashed = { seq: (last?.seq ?? 0) + 1, at: at.toISOString(), ...what, prevHash: last?.hash ?? GENESIS_HASH };
  const entry = { ...unhashed, hash: await hashEntry(unhashed) };
  await tx.insert(moderationLog).values({ ...entry, at });
  const head = { day: entry.at.slice(0, 10), seq: entry.seq, hash: entry.hash };
  const signature = await sign(tx, headMessage(head));
  await tx
    .insert(moderationLogHeads)
    .values({ ...head, signature })
    .onConflictDoUpdate({ target: moderationLogHeads.day, set: { seq: head.seq, hash: head.hash, signature } });
  return entry;
}

/** A page of the log, newest first. */
export async function listLog(db: Db, query: { limit: number; before?: number | undefined }) {
  const rows = await db
    .select()
    .from(moderationLog)
    .where(query.before ? lt(moderationLog.seq, query.before) : undefined)
    .orderBy(desc(moderationLog.seq))
    .limit(query.limit + 1);
  const items = rows.slice(0, query.limit).map(toEntry);
  const more = rows.length > query.limit;
  return { items, nextCursor: more ? String(items.at(-1)?.seq) : null };
}

/**
 * The whole chain, oldest first, with every day's signed head, the key that checks them, and a head signed now naming
 * the newest entry: an export cut short (its newest entries gone with their day's head) no longer passes.
 */
export async function exportLog(db: Db): Promise<{
  entries: LogEntry[];
  heads: LogHead[];
  publicKey: { kty: string; crv: string; x: string };
  latest: LatestHead;
}> {
  const [rows, heads, publicKey] = await Promise.all([
    db.select().from(moderationLog).orderBy(asc(moderationLog.seq)),
    db.select().from(moderationLogHeads).orderBy(asc(moderationLogHeads.day)),
    logPublicKey(db),
  ]);
  const newest = rows.at(-1);
  const unsigned = { at: new Date().toISOString(), seq: newest?.seq ?? 0, hash: newest?.hash ?? GENESIS_HASH };
  const latest = { ...unsigned, signature: await sign(db, latestMessage(unsigned)) };
  return { entries: rows.map(toEntry), heads: heads.filter((head) => head.seq <= unsigned.seq), publicKey, latest };
}
