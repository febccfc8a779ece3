import type { AddressInfo } from "node:net";
import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postDetailSchema } from "#shared/schemas/posts.ts";
import type { App } from "../../../src/server/app.ts";
import type { Database } from "../../../src/server/db/client.ts";
import { buildTestApp, keepOpen } from "../../support/app.ts";
import { deployFeaturedFee, devAccount, startTestChain, type TestChain } from "../../support/chain.ts";
import { createCategory, createPost, likePost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { bearer, makeAdmin, signUp, verifyWallet } from "../../support/users.ts";
import { queuedFor } from "../../support/webhooks.ts";

const writerWallet = devAccount(4);
const readerWallet = devAccount(5);
const strangerWallet = devAccount(6);

describe.each(databaseTargets)("readers' tips on $name", (target) => {
  let chain: TestChain;
  let app: App;
  let writer: Awaited<ReturnType<typeof signUp>>;
  let reader: Awaited<ReturnType<typeof signUp>>;
  let post: { id: string };
  beforeAll(async () => {
    chain = await startTestChain();
    const fee = await deployFeaturedFee(chain);
    app = await buildTestApp(await target.open(), { env: { RPC_URL: chain.rpcUrl, FEE_RECIPIENT: fee } });
    const admin = await signUp(app);
    await makeAdmin(app, admin.id);
    const category = (await createCategory(app, admin)).title;
    writer = await signUp(app);
    reader = await signUp(app);
    await verifyWallet(app, writer, writerWallet);
    await verifyWallet(app, reader, readerWallet);
    post = await createPost(app, writer, category, { title: "Worth a tip" });
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await chain.close();
  });

  const pay = (from = readerWallet, to = writerWallet.address, value = parseEther("0.005")) =>
    chain.wallet(from).sendTransaction({ to, value });
  const tip = (session: { token: string }, txHash: string, url = `/api/posts/${post.id}/tips`) =>
    app.inject({ method: "POST", url, payload: { txHash }, headers: bearer(session) });
  const detail = async () =>
    postDetailSchema.parse((await app.inject({ method: "GET", url: `/api/posts/${post.id}` })).json());

  it("verifies a reader's tip on chain, shows it on the post, the profile and the payments, and tells the author", async () => {
    expect((await detail()).tips).toEqual({ count: 0, totalWei: "0" });
    expect((await detail()).authorWallet).toBe(writerWallet.address);
    const hash = await pay();
    const response = await tip(reader, hash);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ count: 1, totalWei: parseEther("0.005").toString() });
    // The cached post page shows it at once.
    expect((await detail()).tips).toEqual({ count: 1, totalWei: parseEther("0.005").toString() });
    const list = (await app.inject({ method: "GET", url: `/api/posts/${post.id}/tips` })).json();
    expect(list.items).toMatchObject([
      { from: { id: reader.id }, amountWei: parseEther("0.005").toString(), txHash: hash },
    ]);
    const profile = (
      await app.inject({ method: "GET", url: `/api/users/profile/${writer.id}`, headers: bearer(reader) })
    ).json();
    expect(profile.tipsReceived).toEqual({ count: 1, totalWei: parseEther("0.005").toString() });
    const told = (await app.inject({ method: "GET", url: "/api/notifications", headers: bearer(writer) })).json();
    expect(told.items).toMatchObject([
      { kind: "tip", actor: { id: reader.id }, post: { id: post.id }, amountWei: parseEther("0.005").toString() },
    ]);
    // The same transaction twice is refused.
    expect((await tip(reader, hash)).statusCode).toBe(409);
  });

  it("tips from a profile, and refuses tips to oneself, from an unverified wallet, or paid elsewhere", async () => {
    const fromProfile = await tip(reader, await pay(), `/api/users/tips/${writer.id}`);
    expect(fromProfile.statusCode).toBe(200);
    expect(fromProfile.json().count).toBe(2);
    expect((await tip(writer, await pay(writerWallet, readerWallet.address))).json().message).toBe(
      "You cannot tip yourself",
    );
    const stranger = await signUp(app);
    expect((await tip(stranger, await pay(strangerWallet))).statusCode).toBe(403);
    // Paid to someone else's wallet: not a tip to this author.
    const elsewhere = await tip(reader, await pay(readerWallet, strangerWallet.address));
    expect(elsewhere.statusCode).toBe(400);
    // An author without a verified wallet cannot be tipped.
    expect((await tip(writer, await pay(writerWallet), `/api/users/tips/${stranger.id}`)).json().message).toBe(
      "This author has no verified wallet to tip yet.",
    );
    expect(
      (
        await app.inject({
          method: "POST",
          url: `/api/posts/${post.id}/tips`,
          payload: { txHash: `0x${"a".repeat(64)}` },
        })
      ).statusCode,
    ).toBe(401);
  });

  it("refuses a tip of nothing, and takes a tip that leaves the chain off the totals", async () => {
    const nothing = await tip(reader, await pay(readerWallet, writerWallet.address, 0n));
    expect(nothing.statusCode).toBe(400);
    const before = (await detail()).tips;
    const snapshot = await chain.rpc("evm_snapshot");
    const hash = await pay(readerWallet, writerWallet.address, parseEther("0.01"));
    expect((await tip(reader, hash)).statusCode).toBe(200);
    expect((await detail()).tips.count).toBe(before.count + 1);
    await chain.rpc("evm_revert", [snapshot]);
    // The chain now has a different block at that height, without the tip.
    await chain.wallet(strangerWallet).sendTransaction({ to: strangerWallet.address, value: 1n });
    expect((await app.paymentWatcher.recheck()).reorged).toBe(1);
    expect((await detail()).tips).toEqual(before);
    const list = (await app.inject({ method: "GET", url: `/api/posts/${post.id}/tips` })).json();
    expect(list.items.find((item: { txHash: string }) => item.txHash === hash)?.status).toBe("reorged");
    expect(list.totals).toEqual(before);
  });

  it("shows a wallet its author links after the post was read on the cached post at once, so tips can go to it", async () => {
    const newcomer = await signUp(app);
    const category = (await app.inject({ method: "GET", url: "/api/category" })).json().items[0].title;
    const own = await createPost(app, newcomer, category, { title: "Tip me later" });
    const read = async () =>
      postDetailSchema.parse((await app.inject({ method: "GET", url: `/api/posts/${own.id}` })).json()).authorWallet;
    expect(await read()).toBeNull();
    await verifyWallet(app, newcomer, devAccount(7));
    expect(await read()).toBe(devAccount(7).address);
  });

  it("tells tip.confirmed at once of a tip already final when it is recorded (the watcher never sees it turn)", async () => {
    const hooked = await app.inject({
      method: "POST",
      url: "/api/webhooks",
      payload: { url: "http://127.0.0.1:9/tips", events: ["tip.confirmed"] },
      headers: bearer(writer),
    });
    expect(hooked.statusCode, hooked.body).toBe(201);
    const young = await pay();
    expect((await tip(reader, young)).statusCode).toBe(200);
    // Past finality before it is recorded.
    const old = await pay();
    await chain.rpc("hardhat_mine", ["0x20"]);
    expect((await tip(reader, old)).statusCode).toBe(200);
    const queued = await queuedFor(app, hooked.json().id);
    expect(queued.map((event) => [event.type, event.data.txHash])).toEqual([["tip.confirmed", old]]);
    expect(queued[0]?.data).toMatchObject({ postId: post.id, payer: readerWallet.address, chainId: 31337 });
  });
});

/** Reads Server-Sent Events from a real HTTP stream, as the browser's fetch does. */
async function openStream(url: string, token: string) {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return {
    response,
    /** The next `unread` event's count. */
    async next(): Promise<number> {
      for (;;) {
        const event = /event: unread\ndata: (\{[^\n]*\})\n\n/.exec(buffer);
        if (event) {
          buffer = buffer.slice((event.index ?? 0) + event[0].length);
          return JSON.parse(event[1] as string).count;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("the stream ended");
        buffer += decoder.decode(value, { stream: true });
      }
    },
    close: () => controller.abort(),
  };
}

const listening = async (app: App) => {
  await app.listen({ host: "127.0.0.1", port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
};

describe.each(databaseTargets)("live unread counts on $name", (target) => {
  it("pushes the count when something happens, and ends the stream when the server stops", async () => {
    const app = await buildTestApp(await target.open());
    const url = await listening(app);
    const admin = await signUp(app);
    await makeAdmin(app, admin.id);
    const [author, reader] = [await signUp(app), await signUp(app)];
    const post = await createPost(app, author, (await createCategory(app, admin)).title);
    const stream = await openStream(`${url}/api/notifications/stream`, author.token);
    expect(stream.response.headers.get("content-type")).toContain("text/event-stream");
    expect(await stream.next()).toBe(0);
    await likePost(app, reader, post.id);
    expect(await stream.next()).toBe(1);
    await app.inject({ method: "PUT", url: "/api/notifications/read", payload: {}, headers: bearer(author) });
    expect(await stream.next()).toBe(0);
    expect((await fetch(`${url}/api/notifications/stream`)).status).toBe(401);
    expect(app.notificationHub.size()).toBe(1);
    await app.close();
    await expect(stream.next()).rejects.toThrow();
  });

  it.skipIf(target.name !== "postgres" || !process.env.TEST_REDIS_URL)(
    "reaches a page open on another instance, through Redis",
    async () => {
      const database: Database = await target.open();
      const env = { REDIS_URL: process.env.TEST_REDIS_URL as string };
      const [one, two] = [
        await buildTestApp(keepOpen(database), { env }),
        await buildTestApp(keepOpen(database), { env }),
      ];
      try {
        const url = await listening(one);
        const admin = await signUp(two);
        await makeAdmin(two, admin.id);
        const [author, reader] = [await signUp(two), await signUp(two)];
        const post = await createPost(two, author, (await createCategory(two, admin)).title);
        const stream = await openStream(`${url}/api/notifications/stream`, author.token);
        expect(await stream.next()).toBe(0);
        // Redis needs a moment to register the first instance's subscription.
        await new Promise((resolve) => setTimeout(resolve, 200));
        await two.inject({
          method: "PUT",
          url: "/api/posts/likes",
          payload: { postId: post.id },
          headers: bearer(reader),
        });
        expect(await stream.next()).toBe(1);
        stream.close();
      } finally {
        await one.close();
        await two.close();
        await database.close();
      }
    },
  );
});
