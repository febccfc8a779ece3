import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import hre from "hardhat";
import { type Abi, getAddress, type Hex, hashTypedData } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revisionTypedData } from "#shared/provenance.ts";
import { type PostProvenance, provenanceSchema } from "#shared/schemas/provenance.ts";
import type { App } from "../../../src/server/app.ts";
import { users } from "../../../src/server/db/schema.ts";
import { writeArchive } from "../../../src/server/services/leaving/archive.ts";
import { buildTestApp } from "../../support/app.ts";
import { devAccount, startTestChain, type TestChain } from "../../support/chain.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { bearer, signUp } from "../../support/users.ts";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../../..");
const ARTIFACT = path.join(ROOT, "dist/artifacts/contracts/test/OwnedSmartAccount.sol/OwnedSmartAccount.json");
const owner = devAccount(13);

async function verifyPost(...args: string[]) {
  try {
    const { stdout } = await run(process.execPath, [path.join(ROOT, "scripts/verify-post.ts"), ...args], { cwd: ROOT });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: `${failed.stdout}${failed.stderr}` };
  }
}

describe.each(databaseTargets)("verify-post and a revision signed by a smart account (ERC-1271) on $name", (target) => {
  let chain: TestChain;
  let app: App;
  let account: `0x${string}`;
  let dir: string;
  beforeAll(async () => {
    chain = await startTestChain();
    if (!fs.existsSync(ARTIFACT)) await hre.tasks.getTask("build").run({ quiet: true, noTests: true });
    const { abi, bytecode } = JSON.parse(fs.readFileSync(ARTIFACT, "utf8")) as { abi: Abi; bytecode: Hex };
    const hash = await chain.wallet(devAccount(0)).deployContract({ abi, bytecode, args: [owner.address] });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    account = getAddress(receipt.contractAddress as string);
    app = await buildTestApp(await target.open(), { env: { RPC_URL: chain.rpcUrl } });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-smart-"));
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await chain?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("says a contract's signature needs the chain, and checks it through --rpc", async () => {
    const author = await signUp(app);
    await app.db
      .update(users)
      .set({ walletAddress: account, walletVerifiedAt: new Date(Date.now() - 1000) })
      .where(eq(users.id, author.id));
    const category = (await createCategory(app, author, "Contracts that sign")).title;
    const post = await createPost(app, author, category, { title: "Signed by a contract" });
    const answer = provenanceSchema.parse(
      (await app.inject({ url: `/api/posts/${post.id}/provenance`, headers: bearer(author) })).json(),
    );
    const kept = answer.revisions[0] as PostProvenance["revisions"][number];
    const digest = hashTypedData(revisionTypedData(31337, { post: post.id, ...kept }));
    const signed = await app.inject({
      method: "POST",
      url: `/api/posts/${post.id}/revisions/1/signature`,
      payload: { signature: await owner.sign({ hash: digest }) },
      headers: bearer(author),
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const file = path.join(dir, "smart.zip");
    await writeArchive(app.deps, author.id, file);

    const offline = await verifyPost(file);
    expect(offline.output).toContain(`${account} is a smart account (ERC-1271), which only the chain can check`);
    expect(offline.code, offline.output).toBe(3);
    const online = await verifyPost(file, "--rpc", chain.rpcUrl);
    expect(online.output).toContain(`revision 1: signed by ${account} (EIP-712, checked through ${chain.rpcUrl})`);
    expect(online.code, online.output).toBe(0);
  }, 120_000);
});
