import { createProof, exportJwk, generateCryptoKeyPair } from "@fedify/fedify";
import { Article, Image, PUBLIC_COLLECTION } from "@fedify/fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { checkPost, verifyEddsaJcs } from "../../scripts/lib/post-check.ts";
import { type CanonicalRevision, revisionDigest, revisionTypedData } from "../../src/shared/provenance.ts";
import type { SiteProvenance } from "../../src/shared/schemas/provenance-file.ts";

const KEY_ID = "https://blog.example/ap/actors/site#multikey-2";
const POST = "0b6a4c55-7d0e-4a55-9f43-3c2d8f0a1e21";

/** An article signed by Fedify (FEP-8b32), kept as the server keeps it: compact JSON-LD and the proof apart. */
async function signedArticle(pair: CryptoKeyPair, title: string, body: string) {
  const article = new Article({
    id: new URL(`https://blog.example/posts/${POST}`),
    name: title,
    content: body,
    to: PUBLIC_COLLECTION,
    attachments: [new Image({ url: new URL("https://blog.example/uploads/cover.png") })],
    published: Temporal.Instant.from("2026-11-01T10:00:00Z") as never,
  });
  const proof = await createProof(article, pair.privateKey, new URL(KEY_ID), {
    created: Temporal.Instant.from("2026-11-01T10:00:01Z") as never,
  });
  return {
    document: (await article.toJsonLd({ format: "compact" })) as Record<string, unknown>,
    proof: (await proof.toJsonLd({ format: "compact" })) as Record<string, unknown>,
  };
}

async function keyPair() {
  const pair = await generateCryptoKeyPair("Ed25519");
  return { pair, x: (await exportJwk(pair.publicKey)).x as string };
}

describe("the site's proof, checked with node:crypto alone", () => {
  it("verifies what Fedify signed, and nothing else", async () => {
    const { pair, x } = await keyPair();
    const { document, proof } = await signedArticle(pair, "Title", "<p>Body</p>");
    expect(verifyEddsaJcs(document, proof, x)).toBe(true);
    expect(verifyEddsaJcs({ ...document, content: "<p>Other</p>" }, proof, x)).toBe(false);
    expect(verifyEddsaJcs(document, { ...proof, created: "2026-11-02T10:00:01Z" }, x)).toBe(false);
    expect(verifyEddsaJcs(document, proof, (await keyPair()).x)).toBe(false);
  });
});

describe("checkPost", () => {
  async function bundle() {
    const { pair, x } = await keyPair();
    const author = privateKeyToAccount(generatePrivateKey());
    const revisions: SiteProvenance["revisions"] = [];
    let previous: string | null = null;
    for (const [index, body] of ["<p>One</p>", "<p>Two</p>"].entries()) {
      const canonical: CanonicalRevision = {
        post: POST,
        revision: index + 1,
        title: "Title",
        body,
        category: "Essays",
        cover: null,
        author: { id: "a1", handle: "ann" },
        publishedAt: `2026-11-0${index + 1}T10:00:00.000Z`,
        previous,
      };
      const digest = await revisionDigest(canonical);
      const signature = await author.signTypedData(
        revisionTypedData(31337, { post: POST, revision: index + 1, digest, previous }),
      );
      revisions.push({
        revision: index + 1,
        digest,
        previous,
        publishedAt: canonical.publishedAt,
        canonical: canonical as unknown as Record<string, unknown>,
        author: index === 0 ? { signature, signer: author.address, signedAt: canonical.publishedAt } : null,
        site: { ...(await signedArticle(pair, "Title", body)), keyId: KEY_ID },
      });
      previous = digest;
    }
    const provenance: SiteProvenance = {
      format: "penchain-provenance/1",
      post: POST,
      page: `https://blog.example/posts/${POST}/provenance`,
      chainId: 31337,
      siteKey: { id: KEY_ID, x },
      revisions,
    };
    return { provenance, author };
  }

  it("holds for a faithful post: each digest, the chain, the wallet's signature and the site's proof", async () => {
    const { provenance, author } = await bundle();
    const checks = await checkPost(provenance);
    expect(checks.filter((check) => check.ok !== true)).toEqual([]);
    expect(checks.map((check) => check.line)).toContain(
      `revision 1: signed by ${author.address} (EIP-712, recovered offline)`,
    );
    expect(checks.map((check) => check.line)).toContain("revision 2: not signed by its author (the site's word alone)");
  });

  it("names what fails: a changed body, a broken chain, another signer, a smart account it cannot check offline", async () => {
    const { provenance } = await bundle();
    const changed = structuredClone(provenance);
    (changed.revisions[1] as SiteProvenance["revisions"][number]).canonical.body = "<p>Forged</p>";
    expect((await checkPost(changed)).find((check) => check.ok === false)?.line).toMatch(
      /^revision 2: its canonical object hashes to [0-9a-f]{64}, not to the digest/,
    );

    const unchained = structuredClone(provenance);
    (unchained.revisions[1] as SiteProvenance["revisions"][number]).previous = null;
    expect((await checkPost(unchained)).some((check) => check.line.startsWith("revision 2: out of the chain"))).toBe(
      true,
    );

    const claimed = structuredClone(provenance);
    const first = claimed.revisions[0] as SiteProvenance["revisions"][number];
    const other = privateKeyToAccount(generatePrivateKey()).address;
    first.author = { ...(first.author as NonNullable<typeof first.author>), signer: other };
    const unchecked = (await checkPost(claimed)).find((check) => check.line.startsWith("revision 1: the signature"));
    expect(unchecked).toMatchObject({ ok: "unchecked" });
    expect(unchecked?.line).toContain(
      `${other} is a smart account (ERC-1271), which only the chain can check: pass --rpc URL`,
    );

    const rekeyed = { ...structuredClone(provenance), siteKey: { id: KEY_ID, x: (await keyPair()).x } };
    expect((await checkPost(rekeyed)).filter((check) => check.ok === false).map((check) => check.line)).toEqual([
      `revision 1: the site's proof (FEP-8b32, eddsa-jcs-2022) does not verify with ${KEY_ID}`,
      `revision 2: the site's proof (FEP-8b32, eddsa-jcs-2022) does not verify with ${KEY_ID}`,
    ]);
  });
});
