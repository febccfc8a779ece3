import crypto from "node:crypto";
import canonicalize from "canonicalize";
import { and, asc, desc, eq, isNull } from "drizzle-orm";
import { getAddress, type Hex, isAddressEqual, recoverTypedDataAddress } from "viem";
import {
  CANONICAL_FIELDS,
  type CanonicalRevision,
  provenancePath,
  revisionDigest,
  revisionTypedData,
} from "#shared/provenance.ts";
import type { Db } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { categories, federationKeys, postRevisions, posts, users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import type { Storage } from "../../infra/storage.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { SITE_ACTOR } from "../core/federation-queue.ts";
import { isReachable, POST_NOT_FOUND } from "../core/post-queries.ts";
import { cacheTags } from "../core/tags.ts";

// A published post's revisions (docs/provenance.md): written with each publication and edit, checked on read.

/** A cover's digest by its address: a stored image is never rewritten (a new one gets a new random name). */
const coverDigests = new Map<string, Promise<string | null>>();
const COVERS_KEPT = 2000;

/** Hex SHA-256 of the cover image file's bytes; null without a cover (or when its file is gone). */
export function coverDigest(storage: Pick<Storage, "open">, url: string | null): Promise<string | null> {
  if (!url) return Promise.resolve(null);
  let digest = coverDigests.get(url);
  if (!digest) {
    digest = (async () => {
      const file = await storage.open(url);
      if (!file) return null;
      const hash = crypto.createHash("sha256");
      for await (const chunk of file.stream) hash.update(chunk as Buffer);
      return hash.digest("hex");
    })();
    if (coverDigests.size >= COVERS_KEPT) coverDigests.delete(coverDigests.keys().next().value as string);
    coverDigests.set(url, digest);
    digest.catch(() => coverDigests.delete(url));
  }
  return digest;
}

/** What a revision is made of: the post, its category's title and its author's handle and wallet. */
async function revisionSource(db: Db, postId: string) {
  const [row] = await db
    .select({
      id: posts.id,
      title: posts.title,
      description: posts.description,
      image: posts.image,
      userId: posts.userId,
      status: posts.status,
      publishedAt: posts.publishedAt,
      createdAt: posts.createdAt,
      category: categories.title,
      handle: users.handle,
      walletAddress: users.walletAddress,
      walletVerifiedAt: users.walletVerifiedAt,
    })
    .from(posts)
    .innerJoin(categories, eq(categories.id, posts.categoryId))
    .innerJoin(users, eq(users.id, posts.userId))
    .where(eq(posts.id, postId));
  return row;
}
type RevisionSource = NonNullable<Awaited<ReturnType<typeof revisionSource>>>;

function canonicalOf(
  post: RevisionSource,
  at: { revision: number; publishedAt: Date; previous: string | null },
  cover: string | null,
): CanonicalRevision {
  return {
    post: post.id,
    revision: at.revision,
    title: post.title,
    body: post.description,
    category: post.category,
    cover,
    author: { id: post.userId, handle: post.handle },
    publishedAt: at.publishedAt.toISOString(),
    previous: at.previous,
  };
}

/**
 * Keeps the revision a post is now, in the transaction that published or edited it (`tx`, after the post's row was
 * written): its canonical object and digest, chained to the one before, and the site's proof of its `Article`. A post
 * not published after the write makes none. Loads Fedify with the first one.
 */
export async function recordRevision(deps: Pick<Deps, "config" | "storage">, tx: Db, postId: string) {
  const post = await revisionSource(tx, postId);
  if (post?.status !== "published") return null;
  const [last] = await tx
    .select({ revision: postRevisions.revision, digest: postRevisions.digest, at: postRevisions.publishedAt })
    .from(postRevisions)
    .where(eq(postRevisions.postId, postId))
    .orderBy(desc(postRevisions.revision))
    .limit(1);
  // Each revision later than the one before, whatever the clocks of the instances that wrote them.
  const at = new Date(Math.max(Date.now(), last ? last.at.getTime() + 1 : 0));
  const revision = (last?.revision ?? 0) + 1;
  const canonical = canonicalOf(
    post,
    { revision, publishedAt: at, previous: last?.digest ?? null },
    await coverDigest(deps.storage, post.image),
  );
  const digest = await revisionDigest(canonical);
  const { signArticle } = await import("./site-proof.ts");
  const site = await signArticle(tx, deps.config.publicUrl, post, revision > 1 ? at : null, at);
  await tx.insert(postRevisions).values({
    postId,
    revision,
    canonical,
    digest,
    previous: canonical.previous,
    publishedAt: at,
    siteDocument: site.document,
    siteProof: site.proof,
    actorProof: site.actorProof,
  });
  return { revision, digest };
}

type RevisionRow = typeof postRevisions.$inferSelect;
type AuthorWallet = { walletAddress: string | null; walletVerifiedAt: Date | null };

/**
 * Whether a stored signature is still its author's: made by the wallet the author has verified now, and verified
 * since before it was made. A wallet unlinked (or replaced) since no longer speaks for them.
 */
export function signatureCounts(row: Pick<RevisionRow, "authorSigner" | "authorSignedAt">, author: AuthorWallet) {
  return Boolean(
    row.authorSigner &&
      row.authorSignedAt &&
      author.walletAddress &&
      author.walletVerifiedAt &&
      author.walletAddress.toLowerCase() === row.authorSigner.toLowerCase() &&
      author.walletVerifiedAt.getTime() <= row.authorSignedAt.getTime(),
  );
}

const signatureOf = (row: RevisionRow) =>
  row.authorSignature && row.authorSigner && row.authorSignedAt
    ? { signature: row.authorSignature, signer: row.authorSigner, signedAt: row.authorSignedAt.toISOString() }
    : null;

/** The site's Ed25519 public key, as a JWK anyone can check its proofs with (the moderation log's too). */
async function sitePublicKey(db: Db) {
  const [row] = await db
    .select({ publicKey: federationKeys.publicKey })
    .from(federationKeys)
    .where(and(eq(federationKeys.actor, SITE_ACTOR), eq(federationKeys.algorithm, "Ed25519")));
  if (!row) return null;
  const { kty, crv, x } = row.publicKey as { kty: string; crv: string; x: string };
  return { kty, crv, x };
}

/**
 * A published post's provenance as anyone is shown it: every revision, whether the chain holds, and whether the post
 * as stored now is still its latest revision (computed here, on every read the cache cannot answer). 404 for a post
 * that is not public.
 */
export async function readProvenance(deps: Pick<Deps, "db" | "config" | "storage">, postId: string) {
  const [reachable] = await deps.db
    .select({ id: posts.id })
    .from(posts)
    .where(and(eq(posts.id, postId), isReachable));
  const post = reachable ? await revisionSource(deps.db, postId) : undefined;
  if (!post) throw new HttpError(404, POST_NOT_FOUND);
  const [rows, siteKey] = await Promise.all([
    deps.db.select().from(postRevisions).where(eq(postRevisions.postId, postId)).orderBy(asc(postRevisions.revision)),
    sitePublicKey(deps.db),
  ]);
  const problems: string[] = [];
  let previous: string | null = null;
  for (const [index, row] of rows.entries()) {
    const canonical = row.canonical as CanonicalRevision;
    if (row.revision !== index + 1 || canonical.revision !== row.revision || canonical.post !== postId)
      problems.push(`revision ${row.revision} is out of its place`);
    if ((await revisionDigest(canonical)) !== row.digest)
      problems.push(`revision ${row.revision} was changed after it was written`);
    if (row.previous !== previous || canonical.previous !== previous)
      problems.push(`revision ${row.revision} does not follow the one before`);
    previous = row.digest;
  }
  const latest = rows.at(-1);
  const differs: string[] = [];
  if (latest) {
    const kept = latest.canonical as CanonicalRevision;
    const now = canonicalOf(
      post,
      { revision: latest.revision, publishedAt: latest.publishedAt, previous: latest.previous },
      await coverDigest(deps.storage, post.image),
    );
    for (const [field, words] of Object.entries(CANONICAL_FIELDS)) {
      const key = field as keyof typeof CANONICAL_FIELDS;
      // Compared canonically: jsonb keeps an object's keys in its own order.
      if (canonicalize(now[key]) !== canonicalize(kept[key])) differs.push(words);
    }
    if ((await revisionDigest(now)) !== latest.digest && differs.length === 0) differs.push("revision");
  }
  const matches = Boolean(latest) && problems.length === 0 && differs.length === 0;
  const signed = latest && signatureCounts(latest, post) ? latest.authorSigner : null;
  const keyId = new URL("#multikey-2", new URL(`/ap/actors/${SITE_ACTOR}`, `${deps.config.publicUrl}/`)).href;
  return {
    post: postId,
    authorId: post.userId,
    page: new URL(provenancePath(postId), `${deps.config.publicUrl}/`).href,
    title: post.title,
    matches,
    differs,
    problems,
    latest: latest?.revision ?? null,
    signer: signed ?? null,
    siteKey: siteKey ? { id: keyId, publicKeyJwk: siteKey } : null,
    revisions: rows.map((row) => {
      const signature = signatureOf(row);
      const counts = signatureCounts(row, post);
      return {
        revision: row.revision,
        digest: row.digest,
        previous: row.previous,
        publishedAt: row.publishedAt.toISOString(),
        canonical: row.canonical as CanonicalRevision,
        author: counts ? signature : null,
        withdrawn: counts ? null : signature,
        site: {
          proof: row.siteProof as Record<string, unknown>,
          keyId: String((row.siteProof as { verificationMethod?: unknown }).verificationMethod ?? keyId),
          document: row.siteDocument as Record<string, unknown>,
          actorProof: row.actorProof as Record<string, unknown>,
        },
      };
    }),
  };
}
export type Provenance = Awaited<ReturnType<typeof readProvenance>>;

/** The typed data still to sign for the post's author (their latest revision, unless it is signed): else null. */
export function typedDataToSign(provenance: Provenance, viewer: AuthUser | null, chainId: number) {
  if (!viewer || viewer.id !== provenance.authorId || !viewer.walletAddress || !viewer.walletVerifiedAt) return null;
  const latest = provenance.revisions.at(-1);
  if (!latest || latest.author) return null;
  const typed = revisionTypedData(chainId, { post: provenance.post, ...latest });
  // As JSON: the revision a number, the types a plain copy.
  return {
    ...typed,
    types: { Revision: typed.types.Revision.map((field) => ({ ...field })) },
    message: { ...typed.message, revision: latest.revision },
  };
}

export const SIGNATURE_REFUSED = "The signature does not verify for this revision with your verified wallet";

/**
 * The author's EIP-712 signature of one of their post's revisions, checked through the chain client (an EOA, an
 * ERC-1271 account, or an ERC-6492 one not deployed yet) against their verified wallet, and kept once.
 */
export async function signRevision(
  deps: Pick<Deps, "db" | "chain" | "config" | "changed">,
  user: AuthUser,
  postId: string,
  revisionNumber: number,
  signature: Hex,
) {
  const [post] = await deps.db.select({ userId: posts.userId }).from(posts).where(eq(posts.id, postId));
  if (!post) throw new HttpError(404, POST_NOT_FOUND);
  if (post.userId !== user.id) throw new HttpError(403, "You can only sign your own posts");
  const [row] = await deps.db
    .select()
    .from(postRevisions)
    .where(and(eq(postRevisions.postId, postId), eq(postRevisions.revision, revisionNumber)));
  if (!row) throw new HttpError(404, "No such revision of this post");
  if (!user.walletAddress || !user.walletVerifiedAt)
    throw new HttpError(403, "Verify your wallet first: only your verified wallet can sign your posts");
  const wallet = getAddress(user.walletAddress);
  if (signatureCounts(row, user)) throw new HttpError(409, "This revision is signed already");
  const typed = revisionTypedData(deps.config.chain.id, { post: postId, ...row });
  const valid = await deps.chain.verifyTypedData({ address: wallet, signature, ...typed }).catch(() => false);
  if (!valid) {
    const recovered = await recoverTypedDataAddress({ ...typed, signature }).catch(() => null);
    if (recovered && !isAddressEqual(recovered, wallet))
      throw new HttpError(403, `This revision was not signed by your verified wallet ${wallet}`);
    throw new HttpError(400, SIGNATURE_REFUSED);
  }
  const signedAt = new Date();
  const updated = await deps.db
    .update(postRevisions)
    .set({ authorSignature: signature.toLowerCase(), authorSigner: wallet, authorSignedAt: signedAt })
    .where(
      and(
        eq(postRevisions.postId, postId),
        eq(postRevisions.revision, revisionNumber),
        // Another request may have signed it meanwhile: the first one is kept.
        row.authorSignature === null
          ? isNull(postRevisions.authorSignature)
          : eq(postRevisions.authorSignature, row.authorSignature),
      ),
    )
    .returning({ revision: postRevisions.revision })
    .catch((error: unknown) => {
      if (isUniqueViolation(error, "post_revisions_signature_key"))
        throw new HttpError(409, "This signature was used already");
      throw error;
    });
  if (updated.length === 0) throw new HttpError(409, "This revision is signed already");
  deps.changed([cacheTags.post(postId)]);
  return { revision: revisionNumber, signer: wallet };
}
