import { exportJwk, generateCryptoKeyPair, importJwk } from "@fedify/fedify";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { federationKeys } from "../../db/schema.ts";

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
