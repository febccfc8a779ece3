import dns from "node:dns";
import fs from "node:fs";
import net from "node:net";
import tls from "node:tls";
import { Flag, type Person } from "@fedify/fedify/vocab";
import { count, isNotNull } from "drizzle-orm";
import { Agent, type Dispatcher, getGlobalDispatcher, setGlobalDispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { federationQueue, reports } from "../../../src/server/db/schema.ts";
import { DEFAULT_RATE_LIMITS } from "../../../src/server/plugins/rate-limits.ts";
import { REMOTE_REPORTS_PER_DAY } from "../../../src/server/services/moderation/reports.ts";
import { buildTestApp } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { type Peer, startFederatingApp, startPeer } from "../../support/fediverse.ts";
import { signUp } from "../../support/users.ts";

const DEADLINE_MS = 1000;
/** How late past the deadline a close may come on a busy machine. */
const MARGIN_MS = 1500;

describe.each(databaseTargets)("the body deadline holds whatever answered first, on $name", (target) => {
  let app: App;
  let port: number;
  beforeAll(async () => {
    // Production's rate limits, a short deadline, and a real listening server.
    app = await buildTestApp(await target.open(), { rateLimits: {}, env: { REQUEST_TIMEOUT_MS: String(DEADLINE_MS) } });
    await app.listen({ host: "127.0.0.1", port: 0 });
    port = (app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => app.close());

  /**
   * Sends `head` and the start of a 100 KB body, then a byte every 100 ms; answers when the server closed the
   * connection (ms after the headers went) and what it answered first.
   */
  const trickle = (head: string) =>
    new Promise<{ closedAfter: number; answer: string }>((resolve, reject) => {
      const socket = net.connect({ port, host: "127.0.0.1", allowHalfOpen: true });
      let answer = "";
      let start = 0;
      let timer: NodeJS.Timeout | undefined;
      // Stop writing after 8 s whatever happens, so a socket the server keeps cannot hold the test.
      const giveUp = setTimeout(() => socket.destroy(), 8000);
      socket.on("connect", () => {
        start = Date.now();
        socket.write(`${head}Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`);
        timer = setInterval(() => socket.write(" "), 100);
      });
      socket.on("data", (chunk: Buffer) => {
        answer += chunk.toString();
      });
      socket.on("error", () => {});
      socket.on("close", () => {
        clearInterval(timer);
        clearTimeout(giveUp);
        resolve({ closedAfter: Date.now() - start, answer });
      });
      socket.on("timeout", reject);
    });
  const post = (path: string, headers = "") => `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}`;

  it("closes a slow body's connection with a 408", async () => {
    const { closedAfter, answer } = await trickle(post("/api/users/login"));
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfter).toBeLessThan(DEADLINE_MS + MARGIN_MS);
  });

  it("closes the connection of a body to a route that answered 404 first", async () => {
    const { closedAfter, answer } = await trickle(post("/api/no-such-route"));
    // Fastify reads a body for its 404 as for any route: whichever it answered, the connection goes.
    expect(answer).toMatch(/^HTTP\/1\.1 40[48]/);
    expect(closedAfter).toBeLessThan(DEADLINE_MS + MARGIN_MS);
  });

  it("closes the connection of a body to a route that answered 401 first", async () => {
    const { closedAfter, answer } = await trickle(post("/api/posts"));
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(closedAfter).toBeLessThan(DEADLINE_MS + MARGIN_MS);
  });

  it("keeps the default deadline for an upload whose route refused the caller first", async () => {
    // The archive's upload may take an hour, but only once its caller is signed in.
    const { closedAfter, answer } = await trickle(post("/api/imports"));
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(closedAfter).toBeLessThan(DEADLINE_MS + MARGIN_MS);
  });

  it("closes the connection of a body to a route that answered 429 first", async () => {
    const writer = await signUp(app);
    const auth = `Authorization: Bearer ${writer.token}\r\n`;
    // The posts route counts before it reads a body: spend its allowance on empty bodies (each a 400).
    for (let sent = 0; sent < DEFAULT_RATE_LIMITS.posts.max; sent++) {
      const response = await fetch(`http://127.0.0.1:${port}/api/posts`, {
        method: "POST",
        headers: { authorization: `Bearer ${writer.token}`, "content-type": "application/json" },
        body: "{}",
      });
      expect(response.status).toBe(400);
    }
    const { closedAfter, answer } = await trickle(post("/api/posts", auth));
    expect(answer).toMatch(/^HTTP\/1\.1 429/);
    expect(closedAfter).toBeLessThan(DEADLINE_MS + MARGIN_MS);
  });

  it("closes a slow login body's connection once sign-in's limit is spent", async () => {
    for (let sent = 0; sent < DEFAULT_RATE_LIMITS.login.max + 1; sent++) {
      await fetch(`http://127.0.0.1:${port}/api/users/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "nobody@example.com", password: "a wrong guess" }),
      });
    }
    const results = await Promise.all(Array.from({ length: 5 }, () => trickle(post("/api/users/login"))));
    for (const { closedAfter } of results) expect(closedAfter).toBeLessThan(DEADLINE_MS + MARGIN_MS);
  });
});

describe.each(databaseTargets)("reports from another server count per registered domain, on $name", (target) => {
  let federating: Awaited<ReturnType<typeof startFederatingApp>>;
  let app: App;
  let previous: Dispatcher;
  const peers: Peer[] = [];
  beforeAll(async () => {
    federating = await startFederatingApp(await target.open());
    app = federating.app;
    // Any host under .localhost is this machine, as RFC 6761 has it: hosts of one domain, each a real Fedify server.
    previous = getGlobalDispatcher();
    const lookup: typeof dns.lookup = ((hostname: string, options: dns.LookupOptions, callback: never) =>
      dns.lookup(hostname.endsWith(".localhost") ? "127.0.0.1" : hostname, options, callback)) as never;
    const ca = [...tls.rootCertificates, fs.readFileSync(federating.front.certFile, "utf8")];
    setGlobalDispatcher(new Agent({ connect: { ca, lookup } }));
  }, 120_000);
  afterAll(async () => {
    for (const peer of peers) await peer.close();
    if (previous) setGlobalDispatcher(previous);
    await federating?.close();
  });

  const handled = () =>
    vi.waitUntil(async () => (await app.db.select({ n: count() }).from(federationQueue))[0]?.n === 0, {
      timeout: 30_000,
      interval: 100,
    });
  const remoteReports = async () =>
    (await app.db.select({ n: count() }).from(reports).where(isNotNull(reports.remoteReporter)))[0]?.n;

  /** A Fedify server at `host` flags `objects`, and its Flag is handled. */
  async function flagFrom(host: string, objects: URL[], author: Person) {
    const peer = await startPeer("alice", host);
    peers.push(peer);
    await peer.send(
      author,
      new Flag({ id: new URL(`${peer.origin}/flags/${peers.length}`), actor: new URL(peer.actorUri()), objects }),
    );
  }

  it("files one report for an item however many hosts of one domain flag it, and a day's few from that domain", async () => {
    const author = await signUp(app);
    const category = (await createCategory(app, author)).title;
    const { front } = federating;
    const posts = [];
    for (let made = 0; made < REMOTE_REPORTS_PER_DAY + 5; made++) {
      posts.push(new URL(`${front.origin}/posts/${(await createPost(app, author, category)).id}`));
    }
    const lookout = await startPeer("alice", "lookout.localhost");
    peers.push(lookout);
    const authorActor = (await lookout.lookup(`${front.origin}/ap/actors/${author.id}`)) as Person;
    expect(authorActor?.id).toBeTruthy();
    const first = posts[0] as URL;
    for (const host of ["a.evil.localhost", "b.evil.localhost", "c.b.evil.localhost", "EVIL.localhost"]) {
      await flagFrom(host, [first], authorActor);
    }
    // Once every Flag was handled, one report stands for all four hosts.
    await handled();
    expect(await remoteReports()).toBe(1);
    // Hosts of the domain flag every other post, ten at a time: the day's allowance is all they file.
    const rest = posts.slice(1);
    for (let start = 0; start < rest.length; start += 10) {
      await flagFrom(`host${start}.evil.localhost`, rest.slice(start, start + 10), authorActor);
    }
    await handled();
    expect(await remoteReports()).toBe(REMOTE_REPORTS_PER_DAY);
    // Another domain is not held by that one's allowance.
    await flagFrom("decent.localhost", [first], authorActor);
    await handled();
    expect(await remoteReports()).toBe(REMOTE_REPORTS_PER_DAY + 1);
  }, 120_000);
});
