import { encodeFunctionData, type Hash, keccak256, parseEther, zeroHash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { featuredFeeAbi } from "#shared/contracts/featured-fee.ts";
import type { App } from "../../../src/server/app.ts";
import { buildTestApp } from "../../support/app.ts";
import { deployFeaturedFee, devAccount, startTestChain, type TestChain } from "../../support/chain.ts";
import { createCategory, submitPost } from "../../support/content.ts";
import { databaseTargets, pgliteTarget } from "../../support/databases.ts";
import { bearer, makeAdmin, signUp, verifyWallet } from "../../support/users.ts";

const FEE = parseEther("0.01");
const alice = devAccount(2);
const bob = devAccount(3);
const eoaRecipient = devAccount(9);

type Session = Awaited<ReturnType<typeof signUp>>;

describe.each(databaseTargets)("featured posts paid on-chain, on $name", (target) => {
  let chain: TestChain;
  let feeContract: `0x${string}`;
  let app: App;
  let author: Session;
  let topic: string;

  beforeAll(async () => {
    chain = await startTestChain();
    feeContract = await deployFeaturedFee(chain);
    app = await buildTestApp(await target.open(), { env: { RPC_URL: chain.rpcUrl, FEE_RECIPIENT: feeContract } });
    const admin = await signUp(app);
    await makeAdmin(app, admin.id);
    topic = (await createCategory(app, admin)).title;
    author = await signUp(app);
    await verifyWallet(app, author, alice);
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await chain.close();
  });

  const payFeature = (account = alice, value = FEE) =>
    chain.wallet(account).writeContract({
      address: feeContract,
      abi: featuredFeeAbi,
      functionName: "payFeature",
      args: [zeroHash],
      value,
    });
  const featured = (session: Session, hash: string, appUnderTest = app) =>
    submitPost(appUnderTest, session, {
      title: "Featured!",
      description: "<p>Paid</p>",
      category: topic,
      isFeatured: "true",
      transectionHash: hash,
    });
  const expectRefusal = async (
    response: Awaited<ReturnType<typeof featured>>,
    status: number,
    message: string | RegExp,
  ) => {
    expect(response.statusCode).toBe(status);
    expect(response.json().message).toMatch(message);
  };

  it("accepts a payFeature payment: the post is featured, listed first, and its author becomes Pro", async () => {
    await submitPost(app, author, { title: "Plain", description: "<p>x</p>", category: topic, isFeatured: "false" });
    // A list read before, so the featured post must replace a cached page.
    expect((await app.inject({ method: "GET", url: "/api/posts" })).json().items[0].title).toBe("Plain");
    const hash = await payFeature();
    const response = await featured(author, hash);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ isFeatured: true, transectionHash: hash });
    expect(await chain.publicClient.getBalance({ address: feeContract })).toBe(FEE);

    const list = (await app.inject({ method: "GET", url: "/api/posts" })).json();
    expect(list.items[0]).toMatchObject({ id: response.json().id, isFeatured: true });
    const profile = await app.inject({
      method: "GET",
      url: `/api/users/profile/${author.id}`,
      headers: bearer(author),
    });
    expect(profile.json().accountType).toBe("Pro Account");
  });

  it("records payer, amount, block and confirmations for the admins", async () => {
    const hash = await payFeature();
    const post = (await featured(author, hash)).json();
    const receipt = await chain.publicClient.getTransactionReceipt({ hash });
    const admin = await signUp(app);
    await makeAdmin(app, admin.id);
    const payments = (
      await app.inject({ method: "GET", url: "/api/payments?purpose=featured", headers: bearer(admin) })
    ).json();
    expect(payments.items[0]).toMatchObject({
      txHash: hash,
      payer: alice.address,
      recipient: feeContract,
      amountWei: FEE.toString(),
      blockNumber: receipt.blockNumber.toString(),
      confirmations: 1,
      post: { id: post.id, title: "Featured!" },
    });
    expect((await app.inject({ method: "GET", url: "/api/payments", headers: bearer(author) })).statusCode).toBe(403);
  });

  describe("after acceptance", () => {
    const adminView = async (hash: string) => {
      const admin = await signUp(app);
      await makeAdmin(app, admin.id);
      const list = (await app.inject({ method: "GET", url: "/api/payments", headers: bearer(admin) })).json();
      return list.items.find((payment: { txHash: string }) => payment.txHash === hash);
    };

    it("re-checks a payment until it is final", async () => {
      const hash = await payFeature();
      expect((await featured(author, hash)).statusCode).toBe(201);
      expect(await adminView(hash)).toMatchObject({ status: "confirming", confirmations: 1 });
      await chain.rpc("hardhat_mine", ["0x5"]);
      await app.paymentWatcher.recheck();
      expect(await adminView(hash)).toMatchObject({ status: "confirming", confirmations: 6 });
      await chain.rpc("hardhat_mine", ["0x6"]);
      await app.paymentWatcher.recheck();
      expect(await adminView(hash)).toMatchObject({ status: "final", confirmations: 12 });
    });

    it("unfeatures a post whose payment disappears in a reorg, and shows it to the admins", async () => {
      const snapshot = await chain.rpc("evm_snapshot");
      const hash = await payFeature();
      const post = (await featured(author, hash)).json();
      expect(post.isFeatured).toBe(true);
      // Read once, so the cached list and page are what the reorg must replace.
      const before = (await app.inject({ method: "GET", url: "/api/posts" })).json();
      expect(before.items.find((item: { id: string }) => item.id === post.id)?.isFeatured).toBe(true);
      expect((await app.inject({ method: "GET", url: `/api/posts/${post.id}` })).json().isFeatured).toBe(true);
      await chain.rpc("evm_revert", [snapshot]);
      // The chain now has a different block at that height, without the payment.
      await chain.wallet(bob).sendTransaction({ to: bob.address, value: 1n });

      const counts = await app.paymentWatcher.recheck();
      expect(counts.reorged).toBe(1);
      const detail = (await app.inject({ method: "GET", url: `/api/posts/${post.id}` })).json();
      expect(detail.isFeatured).toBe(false);
      expect(await adminView(hash)).toMatchObject({ status: "reorged", post: { id: post.id } });
      const list = (await app.inject({ method: "GET", url: "/api/posts" })).json();
      expect(list.items.find((item: { id: string }) => item.id === post.id)?.isFeatured ?? false).toBe(false);
    });
  });

  it("accepts a plain transfer to the fee contract", async () => {
    const hash = await chain.wallet(alice).sendTransaction({ to: feeContract, value: FEE });
    expect((await featured(author, hash)).statusCode).toBe(201);
  });

  it("gives exactly one of two parallel posts a hash, and refuses it later", async () => {
    const hash = await payFeature();
    const results = await Promise.all([featured(author, hash), featured(author, hash)]);
    expect(results.map((result) => result.statusCode).sort()).toEqual([201, 409]);
    await expectRefusal(
      await featured(author, hash.toUpperCase().replace("0X", "0x")),
      409,
      "This transaction hash was already used for a featured post.",
    );
  });

  it("keeps a featured draft's verified payment claimed, and features the post once it is published", async () => {
    const hash = await payFeature();
    const draft = await submitPost(app, author, {
      title: "Featured draft",
      description: "<p>Paid, not out yet</p>",
      category: topic,
      isFeatured: "true",
      transectionHash: hash,
      status: "draft",
    });
    expect(draft.statusCode).toBe(201);
    expect(draft.json()).toMatchObject({ status: "draft", isFeatured: true, transectionHash: hash });
    const listed = async () =>
      ((await app.inject({ method: "GET", url: "/api/posts?limit=100" })).json().items as { id: string }[]).map(
        (post) => post.id,
      );
    expect(await listed()).not.toContain(draft.json().id);
    await expectRefusal(
      await featured(author, hash),
      409,
      "This transaction hash was already used for a featured post.",
    );
    const published = await app.inject({
      method: "PUT",
      url: `/api/posts/${draft.json().id}`,
      headers: bearer(author),
      payload: { title: "Featured draft", description: "<p>Out now</p>", category: topic, status: "published" },
    });
    expect(published.json()).toMatchObject({ status: "published", isFeatured: true, transectionHash: hash });
    expect((await listed())[0]).toBe(draft.json().id);
  });

  it("refuses an unknown hash", async () => {
    await expectRefusal(
      await featured(author, keccak256("0x1234")),
      400,
      "No transaction with this hash was found on Hardhat.",
    );
  });

  it("refuses a transaction that reverted on-chain", async () => {
    const wallet = chain.wallet(alice);
    const request = await wallet.prepareTransactionRequest({
      to: feeContract,
      data: encodeFunctionData({ abi: featuredFeeAbi, functionName: "payFeature", args: [zeroHash] }),
      value: FEE - 1n,
      gas: 100_000n,
    });
    const signed = await wallet.signTransaction(request);
    const hash = keccak256(signed);
    await chain.publicClient.sendRawTransaction({ serializedTransaction: signed }).catch(() => {});
    expect((await chain.publicClient.getTransactionReceipt({ hash })).status).toBe("reverted");
    await expectRefusal(await featured(author, hash), 400, "This transaction failed on-chain, so nothing was paid.");
  });

  it("refuses a payment to another address", async () => {
    const hash = await chain.wallet(alice).sendTransaction({ to: bob.address, value: FEE });
    await expectRefusal(await featured(author, hash), 400, /did not pay the featured-post fee/);
  });

  it("refuses a payment below the fee (after the owner lowered the contract's fee)", async () => {
    const owner = chain.wallet(devAccount(0));
    await owner.writeContract({ address: feeContract, abi: featuredFeeAbi, functionName: "setFee", args: [FEE / 2n] });
    const hash = await payFeature(alice, FEE / 2n);
    await owner.writeContract({ address: feeContract, abi: featuredFeeAbi, functionName: "setFee", args: [FEE] });
    await expectRefusal(
      await featured(author, hash),
      400,
      "This transaction paid 0.005 ETH, less than the 0.01 ETH required.",
    );
  });

  it("refuses another account's payment", async () => {
    const hash = await payFeature(bob);
    await expectRefusal(
      await featured(author, hash),
      403,
      `This payment came from ${bob.address}, not from your verified wallet ${alice.address}.`,
    );
  });

  it("refuses an author whose wallet is not verified", async () => {
    const unverified = await signUp(app, { walletAddress: bob.address });
    const hash = await payFeature(bob);
    await expectRefusal(await featured(unverified, hash), 403, /Verify your wallet first/);
  });

  it("refuses a pending transaction, and accepts it once mined", async () => {
    await chain.rpc("evm_setAutomine", [false]);
    try {
      const hash = await payFeature();
      await expectRefusal(
        await featured(author, hash),
        400,
        "This transaction is still pending. Wait until it is confirmed, then submit again.",
      );
      await chain.rpc("evm_mine");
      expect((await featured(author, hash)).statusCode).toBe(201);
    } finally {
      await chain.rpc("evm_setAutomine", [true]);
    }
  });

  it("waits for the configured confirmations", async () => {
    const strict = await buildTestApp(await pgliteTarget.open(), {
      env: { RPC_URL: chain.rpcUrl, FEE_RECIPIENT: feeContract, MIN_CONFIRMATIONS: "3" },
    });
    const admin = await signUp(strict);
    await makeAdmin(strict, admin.id);
    await createCategory(strict, admin, topic);
    const user = await signUp(strict);
    await verifyWallet(strict, user, alice);
    const hash = await payFeature();
    await expectRefusal(
      await featured(user, hash, strict),
      400,
      "This transaction has 1 of 3 confirmations. Wait a little, then submit again.",
    );
    await chain.rpc("hardhat_mine", ["0x2"]);
    expect((await featured(user, hash, strict)).statusCode).toBe(201);
    await strict.close();
  });

  it("refuses a transaction from another chain than the configured one", async () => {
    const elsewhere = await buildTestApp(await pgliteTarget.open(), {
      env: { RPC_URL: chain.rpcUrl, CHAIN_ID: "1", FEE_RECIPIENT: feeContract },
    });
    const admin = await signUp(elsewhere);
    await makeAdmin(elsewhere, admin.id);
    await createCategory(elsewhere, admin, topic);
    const user = await signUp(elsewhere);
    const { createSiweMessage } = await import("viem/siwe");
    const { nonce } = (await elsewhere.inject({ method: "GET", url: "/api/auth/siwe/nonce" })).json();
    const message = createSiweMessage({
      address: alice.address,
      chainId: 1,
      domain: "penchain.test",
      uri: "http://penchain.test",
      nonce,
      version: "1",
      issuedAt: new Date(),
    });
    await elsewhere.inject({
      method: "POST",
      url: "/api/users/wallet",
      payload: { message, signature: await alice.signMessage({ message }) },
      headers: bearer(user),
    });
    const hash = await payFeature();
    await expectRefusal(
      await featured(user, hash, elsewhere),
      400,
      "This transaction is on chain 31337, not on Ethereum (chain id 1).",
    );
    await elsewhere.close();
  });

  it("answers 503 when the RPC is unreachable, and saves nothing", async () => {
    const offline = await buildTestApp(await pgliteTarget.open(), {
      env: { RPC_URL: "http://127.0.0.1:9", FEE_RECIPIENT: feeContract },
    });
    const admin = await signUp(offline);
    await makeAdmin(offline, admin.id);
    await createCategory(offline, admin, topic);
    const user = await signUp(offline);
    await verifyWallet(offline, user, alice);
    await expectRefusal(
      await featured(user, keccak256("0xbeef"), offline),
      503,
      "The blockchain node cannot be reached to check the payment. Nothing was saved: please try again.",
    );
    expect((await offline.inject({ method: "GET", url: "/api/posts" })).json().items).toEqual([]);
    await offline.close();
  });

  describe("with a plain address as the fee recipient", () => {
    let eoaApp: App;
    let user: Session;
    beforeAll(async () => {
      eoaApp = await buildTestApp(await pgliteTarget.open(), {
        env: { RPC_URL: chain.rpcUrl, FEE_RECIPIENT: eoaRecipient.address },
      });
      const admin = await signUp(eoaApp);
      await makeAdmin(eoaApp, admin.id);
      await createCategory(eoaApp, admin, topic);
      user = await signUp(eoaApp);
      await verifyWallet(eoaApp, user, alice);
    });
    afterAll(() => eoaApp.close());

    it("accepts a transfer of the fee to it", async () => {
      const hash = await chain.wallet(alice).sendTransaction({ to: eoaRecipient.address, value: FEE });
      expect((await featured(user, hash, eoaApp)).statusCode).toBe(201);
    });

    it("refuses too little", async () => {
      const hash = await chain.wallet(alice).sendTransaction({ to: eoaRecipient.address, value: FEE - 1n });
      await expectRefusal(await featured(user, hash, eoaApp), 400, /less than the 0.01 ETH required/);
    });
  });

  describe("admin tips", () => {
    it("verify the tip to the user's verified wallet and record it as the admin's reward", async () => {
      const admin = await signUp(app);
      await makeAdmin(app, admin.id);
      await verifyWallet(app, admin, bob);
      const tipHash: Hash = await chain.wallet(bob).sendTransaction({ to: alice.address, value: parseEther("0.5") });
      const tip = (hash: string) =>
        app.inject({
          method: "POST",
          url: `/api/users/tip/${author.id}`,
          payload: { transectionHash: hash },
          headers: bearer(admin),
        });
      const response = await tip(tipHash);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ isRewarded: true, rewardsCount: 1 });
      expect((await tip(tipHash)).statusCode).toBe(409);
      const wrongWay = await chain.wallet(bob).sendTransaction({ to: bob.address, value: 1n });
      expect((await tip(wrongWay)).statusCode).toBe(400);
      const tips = (
        await app.inject({ method: "GET", url: "/api/payments?purpose=tip", headers: bearer(admin) })
      ).json();
      expect(tips.items[0]).toMatchObject({
        txHash: tipHash,
        payer: bob.address,
        recipient: alice.address,
        amountWei: parseEther("0.5").toString(),
      });

      // A second admin rewards without a tip; the user's rewards list both, newest first, and only admins see it.
      const other = await signUp(app);
      await makeAdmin(app, other.id);
      await app.inject({ method: "PUT", url: `/api/users/likes/${author.id}`, headers: bearer(other) });
      const rewardsOf = (session: { token: string }) =>
        app.inject({ method: "GET", url: `/api/users/rewards/${author.id}`, headers: bearer(session) });
      const rewards = (await rewardsOf(admin)).json();
      expect(rewards.items).toEqual([
        expect.objectContaining({ id: other.id, admin: expect.objectContaining({ id: other.id }), tip: null }),
        expect.objectContaining({
          id: admin.id,
          tip: { amountWei: parseEther("0.5").toString(), txHash: tipHash, explorerUrl: null },
        }),
      ]);
      expect((await rewardsOf(author)).statusCode).toBe(403);
      const paged = await app.inject({
        method: "GET",
        url: `/api/users/rewards/${author.id}?limit=1`,
        headers: bearer(admin),
      });
      const next = await app.inject({
        method: "GET",
        url: `/api/users/rewards/${author.id}?limit=1&cursor=${paged.json().nextCursor}`,
        headers: bearer(admin),
      });
      expect([...paged.json().items, ...next.json().items].map((reward: { id: string }) => reward.id)).toEqual([
        other.id,
        admin.id,
      ]);
      expect(next.json().nextCursor).toBeNull();
    });
  });
});
