import crypto from "node:crypto";
import net from "node:net";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { posts } from "../../../src/server/db/schema.ts";
import { DEFAULT_RATE_LIMITS } from "../../../src/server/plugins/rate-limits.ts";
import { buildTestApp } from "../../support/app.ts";
import { wxr } from "../../support/archives.ts";
import { createCategory, createPost, postForm } from "../../support/content.ts";
import { databaseTargets, pgliteTarget } from "../../support/databases.ts";
import { multipart, uploadPhoto } from "../../support/images.ts";
import { bearer, buildRegistration, makeAdmin, signUp } from "../../support/users.ts";

const randomAddress = () => `203.0.113.${crypto.randomInt(1, 255)}`;
const login = (app: App, email: string, headers: Record<string, string> = {}) =>
  app.inject({ method: "POST", url: "/api/users/login", payload: { email, password: "a wrong guess" }, headers });

describe("client addresses and per-address limits (production defaults)", () => {
  async function build(env: Record<string, string> = {}) {
    return buildTestApp(await pgliteTarget.open(), { rateLimits: {}, env: { NODE_ENV: "test", ...env } });
  }

  it("ignores X-Forwarded-For without TRUST_PROXY, so rotating it escapes no limit", async () => {
    const app = await build();
    const codes: number[] = [];
    for (let attempt = 0; attempt <= DEFAULT_RATE_LIMITS.loginAccount.max; attempt++) {
      codes.push((await login(app, "victim@example.com", { "x-forwarded-for": randomAddress() })).statusCode);
    }
    expect(codes.at(-1)).toBe(429);
    expect(codes.slice(0, -1).every((code) => code === 401)).toBe(true);

    const registrations: number[] = [];
    for (let attempt = 0; attempt <= DEFAULT_RATE_LIMITS.register.max; attempt++) {
      const response = await app.inject({
        method: "POST",
        url: "/api/users/register",
        payload: buildRegistration(),
        headers: { "x-forwarded-for": randomAddress() },
      });
      registrations.push(response.statusCode);
    }
    expect(registrations.at(-1)).toBe(429);
    expect(registrations.filter((code) => code === 201)).toHaveLength(DEFAULT_RATE_LIMITS.register.max);
    await app.close();
  });

  it("counts one view for rotating X-Forwarded-For values without TRUST_PROXY", async () => {
    const app = await build();
    const author = await signUp(app);
    await makeAdmin(app, author.id);
    const post = await createPost(app, author, (await createCategory(app, author)).title);
    for (let i = 0; i < 20; i++) {
      await app.inject({
        method: "GET",
        url: `/api/posts/${post.id}`,
        remoteAddress: "198.51.100.20",
        headers: { "x-forwarded-for": randomAddress() },
      });
    }
    await app.views.flush();
    const [row] = await app.db.select({ views: posts.numViews }).from(posts).where(eq(posts.id, post.id));
    expect(row?.views).toBe(1);
    await app.close();
  });

  it("believes the nearest proxy with TRUST_PROXY=1, and only a listed one with an address list", async () => {
    const hop = await build({ TRUST_PROXY: "1" });
    const listed = await build({ TRUST_PROXY: "10.0.0.7, 192.168.0.0/16" });
    // Every address gets its own allowance behind a trusted proxy: 2 × max attempts for one e-mail each pass.
    let lastCode = 0;
    for (let attempt = 0; attempt < DEFAULT_RATE_LIMITS.login.max + 5; attempt++) {
      lastCode = (await login(hop, `user${attempt}@example.com`, { "x-forwarded-for": randomAddress() })).statusCode;
    }
    expect(lastCode).toBe(401);

    // From an unlisted peer the header is ignored; from a listed one it names the client.
    for (let attempt = 0; attempt < DEFAULT_RATE_LIMITS.login.max; attempt++) {
      await login(listed, `spray${attempt}@example.com`, { "x-forwarded-for": randomAddress() });
    }
    expect((await login(listed, "another@example.com", { "x-forwarded-for": randomAddress() })).statusCode).toBe(429);
    const viaProxy = await listed.inject({
      method: "POST",
      url: "/api/users/login",
      payload: { email: "another@example.com", password: "a wrong guess" },
      remoteAddress: "192.168.3.4",
      headers: { "x-forwarded-for": randomAddress() },
    });
    expect(viaProxy.statusCode).toBe(401);
    await hop.close();
    await listed.close();
  });

  it("stops password spraying: one address failing on many accounts is limited, with no hint which exist", async () => {
    const app = await build();
    const real = await signUp(app);
    const codes: number[] = [];
    // signUp's own login was the first attempt from this address.
    for (let attempt = 1; attempt < DEFAULT_RATE_LIMITS.login.max; attempt++) {
      codes.push((await login(app, `nobody${attempt}@example.com`)).statusCode);
    }
    expect(codes.every((code) => code === 401)).toBe(true);
    const known = await login(app, real.email);
    const unknown = await login(app, "nobody-else@example.com");
    expect([known.statusCode, unknown.statusCode]).toEqual([429, 429]);
    expect(known.json().message.replace(/\d+/g, "N")).toBe(unknown.json().message.replace(/\d+/g, "N"));
    expect(known.headers["retry-after"]).toMatch(/^\d+$/);
    // Another address may still sign in to the real account.
    const elsewhere = await app.inject({
      method: "POST",
      url: "/api/users/login",
      payload: { email: real.email, password: real.password },
      remoteAddress: randomAddress(),
    });
    expect(elsewhere.statusCode).toBe(200);
    await app.close();
  });

  it("limits comments and reactions per user", async () => {
    const app = await build();
    const [admin, reader] = [await signUp(app), await signUp(app)];
    await makeAdmin(app, admin.id);
    const post = await createPost(app, admin, (await createCategory(app, admin)).title);
    const comment = () =>
      app.inject({
        method: "POST",
        url: "/api/comments",
        payload: { postId: post.id, description: "hi" },
        headers: bearer(reader),
      });
    const react = () =>
      app.inject({ method: "PUT", url: "/api/posts/likes", payload: { postId: post.id }, headers: bearer(reader) });
    const comments: number[] = [];
    for (let i = 0; i <= DEFAULT_RATE_LIMITS.comments.max; i++) comments.push((await comment()).statusCode);
    expect(comments.at(-1)).toBe(429);
    expect(comments.slice(0, -1).every((code) => code === 201)).toBe(true);
    const reactions: number[] = [];
    for (let i = 0; i <= DEFAULT_RATE_LIMITS.reactions.max; i++) reactions.push((await react()).statusCode);
    expect(reactions.at(-1)).toBe(429);
    await app.close();
  });
});

describe.each(databaseTargets)("bad input never reaches the database on $name", (target) => {
  let app: App;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let post: { id: string };
  beforeAll(async () => {
    app = await buildTestApp(await target.open());
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
    post = await createPost(app, admin, (await createCategory(app, admin)).title);
  });
  afterAll(() => app.close());

  const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const junkCursors = [
    cursor(["x", "y", "z"]),
    cursor([1, 2, 3]),
    cursor(["x", "y"]),
    cursor([true, "294277-01-01T00:00:00.000000Z", crypto.randomUUID()]),
    cursor(["294277-01-01T00:00:00.000000Z", crypto.randomUUID()]),
    cursor(["2024-02-30T00:00:00.000000Z", crypto.randomUUID()]),
    cursor([false, "2024-01-01T00:00:00.000000Z", "not-a-uuid"]),
    cursor({ a: 1 }),
    "%%%",
    "bm90IGpzb24",
  ];

  it.each([
    "/api/posts",
    "/api/category",
    "/api/users",
    "/api/payments",
    "/api/posts/{post}/comments",
    "/api/users/rewards/{admin}",
  ])("answers 400 for junk cursors on %s", async (route) => {
    const url = route.replace("{post}", post.id).replace("{admin}", admin.id);
    for (const value of junkCursors) {
      const response = await app.inject({ method: "GET", url: `${url}?cursor=${value}`, headers: bearer(admin) });
      expect(response.statusCode, `${url} ${value}`).toBe(400);
      expect(response.json().message).toBe("Invalid cursor");
    }
  });

  const badTexts = [
    ["a NUL byte", "bad\u0000text"],
    ["an unpaired surrogate", "bad\ud800text"],
  ];

  it.each(badTexts)("refuses %s in login and registration with 400", async (_label, text) => {
    const loginResponse = await app.inject({
      method: "POST",
      url: "/api/users/login",
      payload: { email: "a@example.com", password: text },
    });
    expect(loginResponse.statusCode).toBe(400);
    expect(loginResponse.json().message).toBe("Text must not contain NUL characters or broken Unicode");
    for (const field of ["firstName", "lastName", "password"] as const) {
      const response = await app.inject({
        method: "POST",
        url: "/api/users/register",
        payload: { ...buildRegistration(), [field]: text },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().issues).toEqual([{ path: field, message: expect.any(String) }]);
    }
  });

  it.each(badTexts)("refuses %s in comments, posts, queries and keys with 400", async (_label, text) => {
    const requests = [
      { method: "POST", url: "/api/comments", payload: { postId: post.id, description: text } },
      { method: "PUT", url: `/api/posts/${post.id}`, payload: { title: text, description: "<p>x</p>", category: "x" } },
      { method: "POST", url: "/api/category", payload: { title: text } },
      { method: "POST", url: "/api/comments", payload: { postId: post.id, description: "ok", [text]: 1 } },
    ] as const;
    for (const request of requests) {
      const response = await app.inject({ ...request, headers: bearer(admin) });
      expect(response.statusCode, request.url).toBe(400);
    }
    const query = await app.inject({ method: "GET", url: "/api/posts?category=a%00b" });
    expect(query.statusCode).toBe(400);
    const form = postForm({ title: text, description: "<p>x</p>", category: "x", isFeatured: "false" });
    const created = await app.inject({
      method: "POST",
      url: "/api/posts",
      ...form,
      headers: { ...form.headers, ...bearer(admin) },
    });
    expect(created.statusCode).toBe(400);
  });

  it.each(["a@x.com, b@y.com", "Victim <v@x.com>", "a@x.com;b@y.com", "a@x.com\r\nBcc: c@d.com", "not-an-address"])(
    "refuses %j as an e-mail address with a clear message",
    async (email) => {
      for (const [url, payload] of [
        ["/api/users/register", buildRegistration({ email })],
        ["/api/users/forget-password-token", { email }],
      ] as const) {
        const response = await app.inject({ method: "POST", url, payload });
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toBe("Enter one e-mail address, like name@example.com");
      }
    },
  );

  it("stores and matches addresses lower-cased", async () => {
    const input = buildRegistration({ email: "Mixed.Case@Example.COM" });
    const response = await app.inject({ method: "POST", url: "/api/users/register", payload: input });
    expect(response.json().email).toBe("mixed.case@example.com");
    const session = await app.inject({
      method: "POST",
      url: "/api/users/login",
      payload: { email: "MIXED.case@example.com", password: input.password },
    });
    expect(session.json().email).toBe("mixed.case@example.com");
  });

  it("refuses a 7000×7000 image as too large, not as the wrong type", async () => {
    const huge = await sharp({ create: { width: 7000, height: 7000, channels: 3, background: "#fff" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const response = await uploadPhoto(app, admin, multipart("image", "big.png", "image/png", huge));
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe("The image is too large: at most 40 megapixels, please resize it");
  });
});

describe("slow clients", () => {
  let app: App;
  let port: number;
  beforeAll(async () => {
    app = await buildTestApp(await pgliteTarget.open(), { env: { REQUEST_TIMEOUT_MS: "1000", MAX_CONNECTIONS: "8" } });
    await app.listen({ host: "127.0.0.1", port: 0 });
    port = (app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => app.close());

  /** A raw connection, and when it closed (in ms after opening), however early that happens. */
  const open = () =>
    new Promise<net.Socket & { closedAfter: Promise<number> }>((resolve, reject) => {
      const start = Date.now();
      const socket = net.connect(port, "127.0.0.1", () => resolve(Object.assign(socket, { closedAfter })));
      const closedAfter = new Promise<number>((done) => socket.on("close", () => done(Date.now() - start)));
      socket.on("error", reject);
      // Read whatever the server answers (a 408), so its closing the connection is seen.
      socket.resume();
    });
  const closed = (socket: { closedAfter: Promise<number> }) => socket.closedAfter;

  it("closes sockets whose body trickles in slower than the request timeout", async () => {
    const sockets = await Promise.all(Array.from({ length: 5 }, open));
    const timers = sockets.map((socket) => {
      socket.on("error", () => {});
      socket.write(
        "POST /api/users/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{",
      );
      return setInterval(() => socket.write(" "), 200);
    });
    const durations = await Promise.all(sockets.map(closed));
    for (const timer of timers) clearInterval(timer);
    for (const duration of durations) expect(duration).toBeLessThan(5000);
  });

  it("lets an archive's upload take longer than other requests, and no one else", async () => {
    const writer = await signUp(app);
    const form = postForm(
      { format: "wxr" },
      {
        data: Buffer.from(wxr([{ id: 1, title: "Slow", body: "<p>Slow</p>" }])),
        filename: "slow.xml",
        type: "text/xml",
      },
      "file",
    );
    const socket = await open();
    let answer = "";
    socket.on("data", (chunk: Buffer) => {
      answer += chunk.toString();
    });
    socket.write(
      `POST /api/imports HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${writer.token}\r\nContent-Type: ${form.headers["content-type"]}\r\nContent-Length: ${form.payload.length}\r\n\r\n`,
    );
    // Five pieces 500 ms apart: 2.5 s, over the 1 s any other request has.
    const pieces = 5;
    const size = Math.ceil(form.payload.length / pieces);
    for (let piece = 0; piece < pieces; piece++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      socket.write(form.payload.subarray(piece * size, (piece + 1) * size));
    }
    await expect.poll(() => answer, { timeout: 5000 }).toMatch(/^HTTP\/1\.1 202/);
    socket.destroy();
  });

  it("closes sockets that never finish their headers", async () => {
    const socket = await open();
    socket.write("GET /api/health HTTP/1.1\r\nHost: x\r\n");
    expect(await closed(socket)).toBeLessThan(5000);
  });

  it("caps connections, and serves again once they go", async () => {
    const sockets = await Promise.all(Array.from({ length: 8 }, open));
    const extra = await open();
    expect(await closed(extra)).toBeLessThan(2000);
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const response = await fetch(`http://127.0.0.1:${port}/api/category`);
    expect(response.status).toBe(200);
  });
});
