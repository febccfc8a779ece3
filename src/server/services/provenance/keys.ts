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

/**
 * An actor's Ed25519 key pair (the site's, or an author's), the one its actor publishes (`#multikey-2`) and proofs
 * are made with, made the first time it is asked for. Read in the caller's transaction each time (a revision's write,
 * not a reader's path): a key made in a transaction that rolls back is never used again.
 */
export async function ed25519KeyOf(db: Db, actor: string): Promise<CryptoKeyPair> {
  const where = and(eq(federationKeys.actor, actor), eq(federationKeys.algorithm, "Ed25519"));
  let [row] = await db.select().from(federationKeys).where(where);
  if (!row) {
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
    [row] = await db.select().from(federationKeys).where(where);
  }
  if (!row) throw new Error(`no Ed25519 key for ${actor}`);
  return {
    privateKey: await importJwk(row.privateKey as JsonWebKey, "private"),
    publicKey: await importJwk(row.publicKey as JsonWebKey, "public"),
  };
}

/** The site actor's Ed25519 key pair. */
export const siteEd25519Key = (db: Db) => ed25519KeyOf(db, SITE_ACTOR);
