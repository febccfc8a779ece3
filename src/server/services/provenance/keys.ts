import { exportJwk, generateCryptoKeyPair, importJwk } from "@fedify/fedify";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { federationKeys } from "../../db/schema.ts";
import { SITE_ACTOR } from "../core/federation-queue.ts";

/** RSA for HTTP Signatures (what every server checks), Ed25519 for Object Integrity Proofs (FEP-8b32). */
const ALGORITHMS = ["RSASSA-PKCS1-v1_5", "Ed25519"] as const;

/**
 * A local actor's key pairs, made the first time they are asked for and kept in the database, so every instance
 * signs with the same keys. Kept in memory once read: they never change.
 */
export function createKeyring(db: Db) {
  const known = new Map<string, Promise<CryptoKeyPair[]>>();

  async function load(actor: string): Promise<CryptoKeyPair[]> {
    let rows = await db.select().from(federationKeys).where(eq(federationKeys.actor, actor));
    const missing = ALGORITHMS.filter((algorithm) => !rows.some((row) => row.algorithm === algorithm));
    if (missing.length > 0) {
      for (const algorithm of missing) {
        const pair = await generateCryptoKeyPair(algorithm);
        // Another instance may make them at the same time: the first one written is everyone's.
        await db
          .insert(federationKeys)
          .values({
            actor,
            algorithm,
            privateKey: await exportJwk(pair.privateKey),
            publicKey: await exportJwk(pair.publicKey),
          })
          .onConflictDoNothing();
      }
      rows = await db.select().from(federationKeys).where(eq(federationKeys.actor, actor));
    }
    return Promise.all(
      ALGORITHMS.map(async (algorithm) => {
        const row = rows.find((candidate) => candidate.algorithm === algorithm);
        if (!row) throw new Error(`no ${algorithm} key for ${actor}`);
        return {
          privateKey: await importJwk(row.privateKey as JsonWebKey, "private"),
          publicKey: await importJwk(row.publicKey as JsonWebKey, "public"),
        };
      }),
    );
  }

  return (actor: string): Promise<CryptoKeyPair[]> => {
    let pairs = known.get(actor);
    if (!pairs) {
      pairs = load(actor);
      known.set(actor, pairs);
      pairs.catch(() => known.delete(actor));
    }
    return pairs;
  };
}

const ed25519Kept = new Map<string, Promise<CryptoKeyPair>>();

/**
 * An actor's Ed25519 key pair (the site's, or an author's), the one its actor publishes (`#multikey-2`) and proofs
 * are made with. Read in the caller's transaction; a key made in it is kept in memory only once a later read finds it
 * committed.
 */
export function ed25519KeyOf(db: Db, actor: string): Promise<CryptoKeyPair> {
  const kept = ed25519Kept.get(actor);
  if (kept) return kept;
  const where = and(eq(federationKeys.actor, actor), eq(federationKeys.algorithm, "Ed25519"));
  const read = async () => {
    const [row] = await db.select().from(federationKeys).where(where);
    if (!row) return null;
    return {
      privateKey: await importJwk(row.privateKey as JsonWebKey, "private"),
      publicKey: await importJwk(row.publicKey as JsonWebKey, "public"),
    };
  };
  const made = (async () => {
    const found = await read();
    if (found) return { pair: found, kept: true };
    const pair = await generateCryptoKeyPair("Ed25519");
    // Another instance (or the moderation log) may make it at the same time: the first one written is everyone's.
    await db
      .insert(federationKeys)
      .values({
        actor,
        algorithm: "Ed25519",
        privateKey: await exportJwk(pair.privateKey),
        publicKey: await exportJwk(pair.publicKey),
      })
      .onConflictDoNothing();
    const written = await read();
    if (!written) throw new Error(`no Ed25519 key for ${actor}`);
    return { pair: written, kept: false };
  })();
  const pair = made.then((result) => result.pair);
  made.then(
    (result) => {
      if (result.kept && !ed25519Kept.has(actor)) ed25519Kept.set(actor, pair);
    },
    () => {},
  );
  return pair;
}

/** The site actor's Ed25519 key pair. */
export const siteEd25519Key = (db: Db) => ed25519KeyOf(db, SITE_ACTOR);
