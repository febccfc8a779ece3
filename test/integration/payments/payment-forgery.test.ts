import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  concat,
  encodeFunctionData,
  type Hash,
  type Hex,
  padHex,
  parseEther,
  toEventSelector,
  toHex,
  zeroHash,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { featuredFeeAbi } from "#shared/contracts/featured-fee.ts";
import type { App } from "../../../src/server/app.ts";
import { loadConfig } from "../../../src/server/env.ts";
import { startServer } from "../../../src/server/main.ts";
import { buildTestApp } from "../../support/app.ts";
import { deployFeaturedFee, devAccount, startTestChain, type TestChain } from "../../support/chain.ts";
import { createCategory, submitPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { bearer, makeAdmin, signUp, verifyWallet } from "../../support/users.ts";

const adminWallet = devAccount(4);
const userWallet = devAccount(5);
const stranger = devAccount(6);

/**
 * Code that, whenever it is called, emits FeaturePaid(payer, 0x0, amount) from its own address, as any contract,
 * or a wallet delegated by EIP-7702, could: PUSH32 amount, PUSH1 0, MSTORE; PUSH1 0 (ref), PUSH20 payer,
 * PUSH32 topic, PUSH1 32, PUSH1 0, LOG3, STOP.
 */
function forgedFeaturePaid(payer: Hex, amount: bigint): Hex {
  const topic = toEventSelector("FeaturePaid(address,bytes32,uint256)");
  return concat([
    "0x7f",
    padHex(toHex(amount), { size: 32 }),
    "0x600052",
    "0x6000",
    "0x73",
    payer,
    "0x7f",
    topic,
    "0x60206000a300",
  ]);
}

describe.each(databaseTargets)("forged and replayable payments on $name", (target) => {
  let chain: TestChain;
  let feeContract: `0x${string}`;
  let app: App;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let user: Awaited<ReturnType<typeof signUp>>;
  let topic: string;
  beforeAll(async () => {
    chain = await startTestChain();
    feeContract = await deployFeaturedFee(chain);
    app = await buildTestApp(await target.open(), { env: { RPC_URL: chain.rpcUrl, FEE_RECIPIENT: feeContract } });
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
    await verifyWallet(app, admin, adminWallet);
    topic = (await createCategory(app, admin)).title;
    user = await signUp(app);
    await verifyWallet(app, user, userWallet);
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await chain.close();
  });

  const tip = (hash: Hash) =>
    app.inject({
      method: "POST",
      url: `/api/users/tip/${user.id}`,
      payload: { transectionHash: hash },
      headers: bearer(admin),
    });

  it("does not take a FeaturePaid event from the tipped user's own (delegated) wallet as the admin's tip", async () => {
    await chain.rpc("hardhat_setCode", [userWallet.address, forgedFeaturePaid(adminWallet.address, parseEther("5"))]);
    // The user's code claims the admin paid 5 ETH; the transaction moved nothing and came from someone else.
    const forged = await chain.wallet(stranger).sendTransaction({ to: userWallet.address, value: 0n });
    await chain.publicClient.waitForTransactionReceipt({ hash: forged });
    const refused = await tip(forged);
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(refused.statusCode).toBeLessThan(500);
    expect(
      (await app.inject({ method: "GET", url: "/api/payments?purpose=tip", headers: bearer(admin) })).json().items,
    ).toEqual([]);
    // A real transfer to that wallet from the admin's is still a tip.
    const real = await chain.wallet(adminWallet).sendTransaction({ to: userWallet.address, value: parseEther("0.02") });
    await chain.publicClient.waitForTransactionReceipt({ hash: real });
    expect((await tip(real)).statusCode).toBe(200);
    await chain.rpc("hardhat_setCode", [userWallet.address, "0x"]);
  });

  it("refuses a legacy transaction signed without a chain id, for a tip and for the featured fee", async () => {
    const send = async (to: `0x${string}`, value: bigint, data?: Hex) => {
      const raw = await adminWallet.signTransaction({
        type: "legacy",
        to,
        value,
        data,
        gas: 100_000n,
        gasPrice: (await chain.publicClient.getGasPrice()) * 2n,
        nonce: await chain.publicClient.getTransactionCount({ address: adminWallet.address }),
      });
      const hash = (await chain.rpc("eth_sendRawTransaction", [raw])) as Hash;
      const transaction = await chain.publicClient.getTransaction({ hash });
      expect([27n, 28n]).toContain(transaction.v);
      return hash;
    };
    const tipHash = await send(userWallet.address, parseEther("0.01"));
    const refusedTip = await tip(tipHash);
    expect(refusedTip.statusCode).toBe(400);
    expect(refusedTip.json().message).toMatch(/without a chain id/);

    const data = encodeFunctionData({
      abi: featuredFeeAbi,
      functionName: "payFeature",
      args: [zeroHash],
    });
    const feeHash = await send(feeContract, parseEther("0.01"), data);
    const post = await submitPost(app, admin, {
      title: "Replayable",
      description: "<p>x</p>",
      category: topic,
      isFeatured: "true",
      transectionHash: feeHash,
    });
    expect(post.statusCode).toBe(400);
    expect(post.json().message).toMatch(/without a chain id/);
  });
});

describe("an RPC on another chain", () => {
  it("stops the start with a message naming RPC_URL and CHAIN_ID", async () => {
    const chain = await startTestChain();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-chain-"));
    const config = loadConfig({
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      PORT: "0",
      HOST: "127.0.0.1",
      CHAIN_ID: "1",
      RPC_URL: chain.rpcUrl,
      FEE_RECIPIENT: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      JWT_SECRET: "test-secret-that-is-long-enough-for-tests-0123456789",
      LOG_LEVEL: "silent",
    });
    await expect(startServer(config)).rejects.toThrow(
      /RPC_URL \(http:\/\/127\.0\.0\.1:\d+\) serves chain 31337, but CHAIN_ID is 1/,
    );
    // The same node with the right CHAIN_ID starts.
    const started = await startServer({ ...config, chain: { ...config.chain, id: 31337 } });
    await started.app.close();
    await chain.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
