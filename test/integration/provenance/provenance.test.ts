import crypto from "node:crypto";
import { verifyObject, verifyProof } from "@fedify/fedify";
import { Article, DataIntegrityProof } from "@fedify/fedify/vocab";
import { base58 } from "@scure/base";
import canonicalize from "canonicalize";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CanonicalRevision, canonicalText, revisionTypedData } from "#shared/provenance.ts";
import { type PostProvenance, provenanceSchema } from "#shared/schemas/provenance.ts";
import type { App } from "../../../src/server/app.ts";
import { postRevisions, posts, users } from "../../../src/server/db/schema.ts";
import { buildTestApp } from "../../support/app.ts";
import { devAccount } from "../../support/chain.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { bearer, signUp, verifyWallet } from "../../support/users.ts";

const AP = "application/activity+json";
const authorWallet = devAccount(7);
const otherWallet = devAccount(8);

describe.each(databaseTargets)("a post's revisions and signatures on $name", (target) => {
  let app: App;
  let author: Awaited<ReturnType<typeof signUp>>;
  let category: string;
  beforeAll(async () => {
    app = await buildTestApp(await target.open(), { env: { FEDERATION: "on" } });
    author = await signUp(app);
    category = (await createCategory(app, author, "Provenance")).title;
    await verifyWallet(app, author, authorWallet);
  }, 60_000);
  afterAll(() => app?.close());

  const provenance = async (postId: string, session?: { token: string }) => {
    const response = await app.inject({
      url: `/api/posts/${postId}/provenance`,
      ...(session ? { headers: bearer(session) } : {}),
    });
    expect(response.statusCode).toBe(200);
    return provenanceSchema.parse(response.json());
  };
  const sign = (postId: string, revision: number, signature: string, session = author) =>
    app.inject({
      method: "POST",
      url: `/api/posts/${postId}/revisions/${revision}/signature`,
      payload: { signature },
      headers: bearer(session),
    });
  const typedFor = (answer: PostProvenance, revision = answer.latest as number) => {
    const kept = answer.revisions[revision - 1] as PostProvenance["revisions"][number];
    return revisionTypedData(31337, { post: answer.post, ...kept });
  };
  const edit = (postId: string, fields: Record<string, string>) =>
    app.inject({
      method: "PUT",
      url: `/api/posts/${postId}`,
      payload: { title: "A post", description: "<p>Body</p>", category, ...fields },
      headers: bearer(author),
    });
  const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");

  it("keeps each publication and edit as a chained revision that its author signs with their wallet", async () => {
    const post = await createPost(app, author, category, { title: "First words", description: "<p>One</p>" });
    const first = await provenance(post.id, author);
    expect(first).toMatchObject({ post: post.id, latest: 1, matches: true, signer: null, differs: [] });
    expect(first.page).toBe(`http://penchain.test/posts/${post.id}/provenance`);
    const [one] = first.revisions;
    expect(one?.canonical).toMatchObject({
      post: post.id,
      revision: 1,
      title: "First words",
      body: "<p>One</p>",
      category,
      cover: null,
      author: { id: author.id },
      previous: null,
    });
    // The recipe of docs/provenance.md, recomputed here: SHA-256 of the JCS bytes.
    expect(one?.digest).toBe(sha256(canonicalize(one?.canonical) as string));
    expect(canonicalText(one?.canonical as CanonicalRevision)).toBe(canonicalize(one?.canonical));
    // The author is handed the typed data to sign; anyone else is not.
    expect(first.toSign?.message).toEqual({
      post: post.id,
      revision: 1,
      digest: `0x${one?.digest}`,
      previous: `0x${"0".repeat(64)}`,
    });
    expect((await provenance(post.id)).toSign).toBeNull();

    const signature = await authorWallet.signTypedData(typedFor(first));
    const signed = await sign(post.id, 1, signature);
    expect(signed.statusCode).toBe(200);
    expect(signed.json()).toEqual({ revision: 1, signer: authorWallet.address });
    const after = await provenance(post.id, author);
    expect(after).toMatchObject({ signer: authorWallet.address, matches: true, toSign: null });
    expect(after.revisions[0]?.author).toMatchObject({
      signature: signature.toLowerCase(),
      signer: authorWallet.address,
    });
    const detail = (await app.inject({ url: `/api/posts/${post.id}` })).json();
    expect(detail.provenance).toEqual({ revision: 1, signer: authorWallet.address });

    // An edit is the next revision, chained to the first, unsigned until the author signs it too.
    expect((await edit(post.id, { title: "Second words", description: "<p>Two</p>" })).statusCode).toBe(200);
    const edited = await provenance(post.id, author);
    expect(edited).toMatchObject({ latest: 2, matches: true, signer: null });
    expect(edited.revisions[1]).toMatchObject({ previous: one?.digest, canonical: { previous: one?.digest } });
    expect(edited.toSign?.message.previous).toBe(`0x${one?.digest}`);
    expect((await app.inject({ url: `/api/posts/${post.id}` })).json().provenance).toEqual({
      revision: 2,
      signer: null,
    });
    const second = await authorWallet.signTypedData(typedFor(edited));
    expect((await sign(post.id, 2, second)).statusCode).toBe(200);
    expect((await provenance(post.id)).signer).toBe(authorWallet.address);
    // The feed names the provenance page; the page itself reads without script.
    const feed = (await app.inject({ url: `/rss.xml?author=${author.id}` })).body;
    expect(feed).toContain(
      `rel="related" type="text/html" title="Provenance: revisions and signatures" href="http://penchain.test/posts/${post.id}/provenance"`,
    );
    const page = await app.inject({ url: `/posts/${post.id}/provenance` });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).not.toContain("<script");
    expect(page.body).toContain(
      `Signed by ${authorWallet.address.slice(0, 6)}…${authorWallet.address.slice(-4)}, revision 2.`,
    );
    expect(page.body).toContain("<del>− One</del>");
    expect(page.body).toContain("<ins>+ Two</ins>");
    expect(page.body).toContain("Title: <del>First words</del><ins>Second words</ins>");
    const list = (await app.inject({ url: `/api/posts?author=${author.id}` })).json();
    expect(list.items.find((item: { id: string }) => item.id === post.id).provenance).toEqual({
      revision: 2,
      signer: authorWallet.address,
    });
  });

  it("refuses a signature from another wallet, over another post's digest, replayed, or by someone else", async () => {
    const post = await createPost(app, author, category, { title: "Refusals" });
    const other = await createPost(app, author, category, { title: "Another post" });
    const answer = await provenance(post.id, author);
    const otherAnswer = await provenance(other.id, author);

    const byOtherWallet = await sign(post.id, 1, await otherWallet.signTypedData(typedFor(answer)));
    expect(byOtherWallet.statusCode).toBe(403);
    // Signed by the author's wallet, but over the other post's revision.
    const overOther = await sign(post.id, 1, await authorWallet.signTypedData(typedFor(otherAnswer)));
    expect([400, 403]).toContain(overOther.statusCode);
    expect(overOther.statusCode).not.toBe(200);
    expect((await sign(post.id, 1, `0x${"ab".repeat(65)}`)).statusCode).not.toBe(200);
    expect((await sign(post.id, 9, await authorWallet.signTypedData(typedFor(answer)))).statusCode).toBe(404);

    const stranger = await signUp(app);
    await verifyWallet(app, stranger, otherWallet);
    expect((await sign(post.id, 1, await otherWallet.signTypedData(typedFor(answer)), stranger)).statusCode).toBe(403);

    const good = await authorWallet.signTypedData(typedFor(answer));
    expect((await sign(post.id, 1, good)).statusCode).toBe(200);
    // Replayed: the same signature again, on this revision or on another post's.
    expect((await sign(post.id, 1, good)).statusCode).toBe(409);
    expect((await sign(other.id, 1, good)).statusCode).not.toBe(200);
    expect((await provenance(other.id)).signer).toBeNull();
  });

  it("no longer counts a signature by a wallet the author has unlinked since", async () => {
    const writer = await signUp(app);
    const wallet = devAccount(9);
    await verifyWallet(app, writer, wallet);
    const post = await createPost(app, writer, category, { title: "Unlinked later" });
    const answer = await provenance(post.id, writer);
    const signed = await app.inject({
      method: "POST",
      url: `/api/posts/${post.id}/revisions/1/signature`,
      payload: { signature: await wallet.signTypedData(typedFor(answer)) },
      headers: bearer(writer),
    });
    expect(signed.statusCode).toBe(200);
    expect((await provenance(post.id)).signer).toBe(wallet.address);
    const unlinked = await app.inject({
      method: "PUT",
      url: "/api/users/password",
      payload: { currentPassword: writer.password, password: "another horse battery staple", unlinkWallet: true },
      headers: bearer(writer),
    });
    expect(unlinked.statusCode, unlinked.body).toBe(200);
    const [row] = await app.db.select().from(users).where(eq(users.id, writer.id));
    expect(row?.walletVerifiedAt).toBeNull();
    const now = await provenance(post.id);
    expect(now.signer).toBeNull();
    expect(now.revisions[0]?.author).toBeNull();
    expect(now.revisions[0]?.withdrawn).toMatchObject({ signer: wallet.address });
    expect((await app.inject({ url: `/api/posts/${post.id}` })).json().provenance).toEqual({
      revision: 1,
      signer: null,
    });
  });

  it("says a post changed in the database does not match what its author signed", async () => {
    const post = await createPost(app, author, category, { title: "Tampered", description: "<p>Honest</p>" });
    const answer = await provenance(post.id, author);
    expect((await sign(post.id, 1, await authorWallet.signTypedData(typedFor(answer)))).statusCode).toBe(200);
    await app.db.update(posts).set({ description: "<p>Forged</p>" }).where(eq(posts.id, post.id));
    const response = await app.inject({ url: `/api/posts/${post.id}/provenance` });
    const changed = provenanceSchema.parse(response.json());
    expect(changed.matches).toBe(false);
    expect(changed.differs).toEqual(["body"]);
    const page = await app.inject({ url: `/posts/${post.id}/provenance` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("does not match what its author signed");
    expect(page.body).toContain("its body differs from revision 1");
    // Not a public post: no provenance.
    expect((await app.inject({ url: `/posts/${crypto.randomUUID()}/provenance` })).statusCode).toBe(404);
    expect((await app.inject({ url: "/posts/not-an-id/provenance" })).statusCode).toBe(404);

    // A revision's own row changed: its digest no longer holds.
    const other = await createPost(app, author, category, { title: "Row changed" });
    const [kept] = await app.db.select().from(postRevisions).where(eq(postRevisions.postId, other.id));
    await app.db
      .update(postRevisions)
      .set({ canonical: { ...(kept?.canonical as object), title: "Rewritten" } })
      .where(and(eq(postRevisions.postId, other.id), eq(postRevisions.revision, 1)));
    const rewritten = await provenance(other.id);
    expect(rewritten.matches).toBe(false);
    expect(rewritten.problems).toEqual(["revision 1 was changed after it was written"]);
  });

  it("federates the Article with the site's FEP-8b32 proof, which Fedify and a plain Ed25519 check accept", async () => {
    const post = await createPost(app, author, category, { title: "On the fediverse", description: "<p>Hi</p>" });
    const served = await app.inject({ url: `/posts/${post.id}`, headers: { accept: AP } });
    expect(served.statusCode).toBe(200);
    const article = served.json();
    // The site's proof, and the author's actor's (a fediverse server wants each attribution to have signed).
    expect(article.proof).toMatchObject([
      { type: "DataIntegrityProof", cryptosuite: "eddsa-jcs-2022" },
      { type: "DataIntegrityProof", verificationMethod: `http://penchain.test/ap/actors/${author.id}#multikey-2` },
    ]);
    const answer = await provenance(post.id);
    const { proof, document, keyId } = (answer.revisions[0] as PostProvenance["revisions"][number]).site;
    expect(proof.proofValue).toBe(article.proof[0].proofValue);
    expect(keyId).toBe("http://penchain.test/ap/actors/site#multikey-2");

    // Fedify's verifier, fetching the key from the site's actor as a remote server would.
    const documentLoader = async (url: string) => {
      const response = await app.inject({ url: new URL(url).pathname, headers: { accept: AP } });
      return { contextUrl: null, documentUrl: url, document: response.json() };
    };
    const parsed = await DataIntegrityProof.fromJsonLd(proof);
    expect(await verifyProof(article, parsed, { documentLoader, contextLoader: undefined })).not.toBeNull();
    const verified = await verifyObject(Article, article, { documentLoader });
    expect(verified?.name?.toString()).toBe("On the fediverse");

    // An independent check: Ed25519 over SHA-256(JCS(proof options)) ‖ SHA-256(JCS(document)), with node:crypto.
    const { proofValue, ...options } = proof as Record<string, unknown>;
    const config = { ...options, "@context": document["@context"] };
    const message = Buffer.concat([
      crypto
        .createHash("sha256")
        .update(canonicalize(config) as string)
        .digest(),
      crypto
        .createHash("sha256")
        .update(canonicalize(document) as string)
        .digest(),
    ]);
    const jwk = answer.siteKey?.publicKeyJwk as { kty: string; crv: string; x: string };
    const key = crypto.createPublicKey({ key: jwk, format: "jwk" });
    const signature = base58.decode(String(proofValue).slice(1));
    expect(crypto.verify(null, message, key, signature)).toBe(true);
    // The served Article without its proofs is the signed document, its public audience written as a CURIE.
    const { proof: _proof, ...unsigned } = article;
    expect(unsigned.to).toBe("as:Public");
    expect(canonicalize({ ...unsigned, to: "https://www.w3.org/ns/activitystreams#Public" })).toBe(
      canonicalize(document),
    );
    // Changed, it fails.
    const forged = Buffer.concat([message.subarray(0, 32), crypto.createHash("sha256").update("forged").digest()]);
    expect(crypto.verify(null, forged, key, signature)).toBe(false);
  });
});
