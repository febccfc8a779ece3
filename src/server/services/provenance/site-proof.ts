import crypto from "node:crypto";
import { createProof, exportJwk } from "@fedify/fedify";
import { type Article, DataIntegrityProof } from "@fedify/fedify/vocab";
import canonicalize from "canonicalize";
import { fromBase58 } from "#shared/base58.ts";
import type { Db } from "../../db/client.ts";
import { type ArticleFields, buildArticle, ed25519KeyId, instant, siteKeyId } from "./article.ts";
import { ed25519KeyOf, siteEd25519Key } from "./keys.ts";

// Loaded with the first revision written (revisions.ts) or by the federation: Fedify stays out of a server that only
// serves readers.

/**
 * The site's FEP-8b32 proof (eddsa-jcs-2022, by Fedify) of the `Article` a revision federates as, and its author's
 * actor's: fediverse servers accept an object only when each of its attributions signed it. Answers the article's
 * compact JSON-LD that was signed, and both proofs as JSON-LD.
 */
export async function signArticle(db: Db, base: string, post: ArticleFields, revisedAt: Date | null, at: Date) {
  const article = buildArticle(base, post, revisedAt);
  const created = instant(at);
  const [site, author] = [await siteEd25519Key(db), await ed25519KeyOf(db, post.userId)];
  const [siteProof, actorProof] = [
    await createProof(article, site.privateKey, siteKeyId(base), { created }),
    await createProof(article, author.privateKey, ed25519KeyId(base, post.userId), { created }),
  ];
  const document = asSent((await article.toJsonLd({ format: "compact" })) as Record<string, unknown>);
  const proof = (await siteProof.toJsonLd({ format: "compact" })) as Record<string, unknown>;
  // What is kept must be what was signed: checked here as a reader will, without Fedify.
  if (!checkProof(document, proof, await exportJwk(site.publicKey)))
    throw new Error("the site's proof does not verify over the document kept");
  return {
    document,
    proof,
    actorProof: (await actorProof.toJsonLd({ format: "compact" })) as Record<string, unknown>,
  };
}

const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";
const publicUri = (value: unknown) =>
  value === "as:Public" || value === "Public"
    ? PUBLIC
    : Array.isArray(value)
      ? value.map((item) => (item === "as:Public" || item === "Public" ? PUBLIC : item))
      : value;

/**
 * The compact JSON-LD as Fedify signs and sends it (its outgoing normalisation): the public audience written out
 * in full, a lone attachment in a list.
 */
function asSent(document: Record<string, unknown>) {
  const sent: Record<string, unknown> = { ...document };
  for (const field of ["to", "cc", "bto", "bcc", "audience"]) if (field in sent) sent[field] = publicUri(sent[field]);
  if ("attachment" in sent && !Array.isArray(sent.attachment)) sent.attachment = [sent.attachment];
  return sent;
}

/**
 * eddsa-jcs-2022 as a reader checks it (docs/provenance.md): Ed25519 over SHA-256(JCS(the proof's options with the
 * document's context)) followed by SHA-256(JCS(the document without its proof)).
 */
export function checkProof(document: Record<string, unknown>, proof: Record<string, unknown>, publicKey: JsonWebKey) {
  const { proofValue, ...options } = proof;
  const { proof: _proof, ...unsigned } = document;
  const sha256 = (value: unknown) =>
    crypto
      .createHash("sha256")
      .update(canonicalize(value) as string)
      .digest();
  const message = Buffer.concat([sha256({ ...options, "@context": document["@context"] }), sha256(unsigned)]);
  const key = crypto.createPublicKey({ key: publicKey as crypto.JsonWebKey, format: "jwk" });
  return crypto.verify(null, message, key, fromBase58(String(proofValue).slice(1)));
}

/** An article with its proofs kept as JSON-LD. */
export async function withProofs(article: Article, proofs: unknown[]) {
  return article.clone({ proofs: await Promise.all(proofs.map((proof) => DataIntegrityProof.fromJsonLd(proof))) });
}
