import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import hre from "hardhat";
import { type Abi, getAddress, type Hex, hashTypedData } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revisionTypedData } from "#shared/provenance.ts";
import { type PostProvenance, provenanceSchema } from "#shared/schemas/provenance.ts";
import type { App } from "../../../src/server/app.ts";
import { users } from "../../../src/server/db/schema.ts";
import { buildTestApp } from "../../support/app.ts";
import { devAccount, startTestChain, type TestChain } from "../../support/chain.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { bearer, signUp } from "../../support/users.ts";

const ARTIFACT = path.resolve(
  import.meta.dirname,
  "../../../dist/artifacts/contracts/test/OwnedSmartAccount.sol/OwnedSmartAccount.json",
);
const owner = devAccount(11);
const stranger = devAccount(12);

describe.each(databaseTargets)("a revision signed by a smart account (ERC-1271) on $name", (target) => {
  let chain: TestChain;
  let app: App;
  let account: `0x${string}`;
  beforeAll(async () => {
    chain = await startTestChain();
    if (!fs.existsSync(ARTIFACT)) await hre.tasks.getTask("build").run({ quiet: true, noTests: true });
    const { abi, bytecode } = JSON.parse(fs.readFileSync(ARTIFACT, "utf8")) as { abi: Abi; bytecode: Hex };
    const hash = await chain.wallet(devAccount(0)).deployContract({ abi, bytecode, args: [owner.address] });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    account = getAddress(receipt.contractAddress as string);
    app = await buildTestApp(await target.open(), { env: { RPC_URL: chain.rpcUrl } });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await chain?.close();
  });

  it("takes the account's signature, checked on chain through isValidSignature, and refuses another key's", async () => {
    const author = await signUp(app);
    // The smart account as the author's verified wallet (linking one by SIWE is the wallet screen's own test).
    await app.db
      .update(users)
      .set({ walletAddress: account, walletVerifiedAt: new Date(Date.now() - 1000) })
      .where(eq(users.id, author.id));
    const category = (await createCategory(app, author, "Smart accounts")).title;
    const post = await createPost(app, author, category, { title: "Signed by a contract" });
    const answer = provenanceSchema.parse(
      (await app.inject({ url: `/api/posts/${post.id}/provenance`, headers: bearer(author) })).json(),
    );
    expect(answer.toSign).not.toBeNull();
    const kept = answer.revisions[0] as PostProvenance["revisions"][number];
    const digest = hashTypedData(revisionTypedData(31337, { post: post.id, ...kept }));
    const sign = async (signature: Hex) =>
      app.inject({
        method: "POST",
        url: `/api/posts/${post.id}/revisions/1/signature`,
        payload: { signature },
        headers: bearer(author),
      });
    // Another key's signature of the same revision: the account's isValidSignature refuses it.
    expect((await sign(await stranger.sign({ hash: digest }))).statusCode).toBe(403);
    const signed = await sign(await owner.sign({ hash: digest }));
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toEqual({ revision: 1, signer: account });
    const after = provenanceSchema.parse((await app.inject({ url: `/api/posts/${post.id}/provenance` })).json());
    expect(after.signer).toBe(account);
    expect(after.matches).toBe(true);
  });
});
