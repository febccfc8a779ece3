import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { posts } from "../../../src/server/db/schema.ts";
import { MAX_DEPTH } from "../../../src/server/plugins/input-guard.ts";
import { DEFAULT_RATE_LIMITS } from "../../../src/server/plugins/rate-limits.ts";
import { buildTestApp } from "../../support/app.ts";
import { startTestChain, type TestChain } from "../../support/chain.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets, pgliteTarget } from "../../support/databases.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

describe.each(databaseTargets)("review findings on $name", (target) => {
  let app: App;
  let author: Awaited<ReturnType<typeof signUp>>;
  let topic: string;
  beforeAll(async () => {
    app = await buildTestApp(await target.open());
    author = await signUp(app);
    await makeAdmin(app, author.id);
    topic = (await createCategory(app, author)).title;
  });
  afterAll(() => app.close());

  it("hides a comment whose post went back to draft from reading and editing by id; its author may still delete it", async () => {
    const post = await createPost(app, author, topic);
    const reader = await signUp(app);
    const created = await app.inject({
      method: "POST",
      url: "/api/comments",
      payload: { postId: post.id, description: "Nice" },
      headers: bearer(reader),
    });
    const id = created.json().id as string;
    expect((await app.inject({ method: "GET", url: `/api/comments/${id}`, headers: bearer(reader) })).statusCode).toBe(
      200,
    );
    const back = await app.inject({
      method: "PUT",
      url: `/api/posts/${post.id}`,
      payload: { title: post.title, description: "<p>Body</p>", category: topic, status: "draft" },
      headers: bearer(author),
    });
    expect(back.json().status).toBe("draft");
    const read = await app.inject({ method: "GET", url: `/api/comments/${id}`, headers: bearer(reader) });
    expect(read.statusCode).toBe(404);
    const edit = await app.inject({
      method: "PUT",
      url: `/api/comments/${id}`,
      payload: { description: "Edited in secret" },
      headers: bearer(reader),
    });
    expect(edit.statusCode).toBe(404);
    const removed = await app.inject({ method: "DELETE", url: `/api/comments/${id}`, headers: bearer(reader) });
    expect(removed.statusCode).toBe(200);
  });

  it("refuses JSON nested past the limit with a 400, however deep (900 KB of brackets)", async () => {
    for (const depth of [MAX_DEPTH + 1, 1000, 450_000]) {
      const body = `${"[".repeat(depth)}${"]".repeat(depth)}`;
      const response = await app.inject({
        method: "POST",
        url: "/api/comments",
        payload: `{"postId":${body}}`,
        headers: { ...bearer(author), "content-type": "application/json" },
      });
      expect(response.statusCode, `depth ${depth}`).toBe(400);
      expect(response.json().message).toMatch(/nested too deeply|JSON/);
    }
    // Within the limit, the request goes on to its own validation.
    const shallow = await app.inject({
      method: "POST",
      url: "/api/comments",
      payload: { postId: [[["x"]]], description: "x" },
      headers: bearer(author),
    });
    expect(shallow.statusCode).toBe(400);
    expect(shallow.json().message).toBe("postId must be a post id");
  });

  it("remembers only tokens that verified, keyed by their hash, and never a failure", async () => {
    const before = app.identifiedCount();
    for (let index = 0; index < 50; index++) {
      const junk = `Bearer ${"x".repeat(8000)}${index}`;
      const response = await app.inject({ method: "GET", url: "/api/posts", headers: { authorization: junk } });
      expect(response.statusCode).toBe(200);
    }
    expect(app.identifiedCount()).toBe(before);
    await app.inject({ method: "GET", url: "/api/posts", headers: bearer(author) });
    expect(app.identifiedCount()).toBe(before + 1);
  });
});

describe("IPv6 clients are counted by their /64 (production defaults)", () => {
  it("limits logins across addresses of one /64, and not across networks", async () => {
    const app = await buildTestApp(await pgliteTarget.open(), { rateLimits: {} });
    const attempt = (remoteAddress: string, index: number) =>
      app.inject({
        method: "POST",
        url: "/api/users/login",
        payload: { email: `nobody-${index}@example.com`, password: "a wrong guess" },
        remoteAddress,
      });
    const codes: number[] = [];
    for (let index = 0; index <= DEFAULT_RATE_LIMITS.login.max; index++) {
      codes.push((await attempt(`2001:db8:aa:bb::${(index + 1).toString(16)}`, index)).statusCode);
    }
    expect(codes.slice(0, -1).every((code) => code === 401)).toBe(true);
    expect(codes.at(-1)).toBe(429);
    expect((await attempt("2001:db8:aa:bb:ffff:ffff:ffff:ffff", 99)).statusCode).toBe(429);
    expect((await attempt("2001:db8:aa:bc::1", 100)).statusCode).toBe(401);
    await app.close();
  });

  it("counts one anonymous view for a /64, and an IPv4-mapped address as its IPv4 address", async () => {
    const app = await buildTestApp(await pgliteTarget.open());
    const author = await signUp(app);
    await makeAdmin(app, author.id);
    const post = await createPost(app, author, (await createCategory(app, author)).title);
    for (const remoteAddress of ["2001:db8:1:2::1", "2001:db8:1:2:abcd::9", "203.0.113.7", "::ffff:203.0.113.7"]) {
      await app.inject({ method: "GET", url: `/api/posts/${post.id}`, remoteAddress });
    }
    await app.views.flush();
    const [row] = await app.db.select({ views: posts.numViews }).from(posts).where(eq(posts.id, post.id));
    expect(row?.views).toBe(2);
    await app.close();
  });
});

describe("/api/health and the chain", () => {
  let chain: TestChain;
  let calls = 0;
  let proxy: http.Server;
  let proxyUrl: string;
  beforeAll(async () => {
    chain = await startTestChain();
    // Forwards JSON-RPC to the real chain and counts what reaches it.
    proxy = http.createServer(async (request, response) => {
      calls++;
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const answer = await fetch(chain.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: Buffer.concat(chunks),
      });
      response.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    proxy.close();
    await chain.close();
  });

  it("asks the RPC once for 50 health checks in a row within a few seconds", async () => {
    const app = await buildTestApp(await pgliteTarget.open(), { env: { RPC_URL: proxyUrl } });
    calls = 0;
    // One after another: viem already merges identical calls made at the same moment.
    for (let check = 0; check < 50; check++) {
      const answer = await app.inject("/api/health");
      expect(answer.statusCode).toBe(200);
      expect(answer.json().chain).toBe("ok");
    }
    expect(calls).toBe(1);
    await app.close();
  });
});
