import http from "node:http";
import type net from "node:net";
import { Create, type Person } from "@fedify/fedify/vocab";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { federationQueue, remoteFollowers, remoteReactions, remoteReplies } from "../../../src/server/db/schema.ts";
import { buildTestApp } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import {
  likeJson,
  type Peer,
  startFederatingApp,
  startKeyForger,
  startPeer,
  type startTlsFront,
} from "../../support/fediverse.ts";
import { bearer, signUp } from "../../support/users.ts";

const WAIT = { timeout: 15_000, interval: 100 };

/** A server on loopback that counts what reaches it: the inbox a delivery must not reach, or one that redirects. */
async function startListener(answer: (request: http.IncomingMessage, response: http.ServerResponse) => void) {
  const hits: string[] = [];
  const server = http.createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    request.resume();
    answer(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Issue 35, as a hostile fediverse server would try it: another server's key speaking for a peer's account, a
 * blocked domain written as a list, deep or NUL-bearing documents, inboxes pointing elsewhere, and usernames that
 * are not usernames. Every peer is a real Fedify server on loopback.
 */
describe.each(databaseTargets)("federation under attack on $name", (target) => {
  let app: App;
  let front: Awaited<ReturnType<typeof startTlsFront>>;
  let peer: Peer;
  let author: Awaited<ReturnType<typeof signUp>>;
  let category: string;
  let authorActor: Person;
  const inbox = () => `${front.origin}/ap/inbox`;

  let federating: Awaited<ReturnType<typeof startFederatingApp>>;
  beforeAll(async () => {
    federating = await startFederatingApp(await target.open());
    ({ app, front, peer } = federating);
    author = await signUp(app, { firstName: "Ada", lastName: "Lovelace" });
    category = (await createCategory(app, author, "Poetical Science")).title;
    authorActor = (await peer.lookup(`acct:ada-lovelace@${front.host}`)) as Person;
  }, 60_000);
  afterAll(() => federating?.close());

  const queueIsEmpty = async () =>
    (await app.db.select({ n: sql<number>`count(*)::int` }).from(federationQueue))[0]?.n === 0;
  const likesOf = async (postId: string) =>
    (await app.db.select().from(remoteReactions).where(eq(remoteReactions.postId, postId))).length;

  it("refuses a key on one server speaking for an account on another", async () => {
    const post = await createPost(app, author, category, { title: "Impersonated" });
    const postUri = `${front.origin}/posts/${post.id}`;
    const forger = await startKeyForger(peer.actorUri());
    try {
      const forgedLike = await forger.post(inbox(), likeJson(`${peer.origin}/likes/forged`, peer.actorUri(), postUri));
      expect(forgedLike.status).toBe(401);
      const reply = peer.note(new URL(postUri), "<p>Words put in Alice's mouth</p>", "forged-reply");
      const create = new Create({
        id: new URL(`${peer.origin}/creates/forged`),
        actor: reply.attributionId,
        object: reply,
      });
      const forgedReply = await forger.post(inbox(), await create.toJsonLd());
      expect(forgedReply.status).toBe(401);
      // The same Like, signed by the account's own key, counts.
      const own = await peer.post(inbox(), likeJson(`${peer.origin}/likes/own`, peer.actorUri(), postUri));
      expect(own.status).toBe(202);
      await vi.waitUntil(async () => (await likesOf(post.id)) === 1, WAIT);
      await vi.waitUntil(queueIsEmpty, WAIT);
      expect(await app.db.select().from(remoteReplies).where(eq(remoteReplies.postId, post.id))).toEqual([]);
    } finally {
      await forger.close();
    }
  });

  it("refuses an activity naming two actors, or none", async () => {
    const post = await createPost(app, author, category, { title: "Two actors" });
    const like = (actor: unknown) =>
      likeJson(`${peer.origin}/likes/${Math.random()}`, actor, `${front.origin}/posts/${post.id}`);
    expect((await peer.post(inbox(), like([peer.actorUri(), "https://elsewhere.example/users/bob"]))).status).toBe(400);
    expect((await peer.post(inbox(), like(undefined))).status).toBe(400);
    expect(await likesOf(post.id)).toBe(0);
  });

  it("keeps a blocked domain out however its actor is written, a trailing dot included", async () => {
    const mallory = await startPeer("mallory", "localhost");
    try {
      const blocked = await app.inject({
        method: "POST",
        url: "/api/federation/blocked-domains",
        headers: bearer(author),
        payload: { domain: "LOCALHOST." },
      });
      expect(blocked.statusCode).toBe(201);
      expect(blocked.json()).toEqual([expect.objectContaining({ domain: "localhost" })]);
      const post = await createPost(app, author, category, { title: "Blocked as a list" });
      const like = (actor: unknown) =>
        likeJson(`${mallory.origin}/likes/${Math.random()}`, actor, `${front.origin}/posts/${post.id}`);
      expect((await mallory.post(inbox(), like([mallory.actorUri()]))).status).toBe(403);
      expect((await mallory.post(inbox(), like({ id: mallory.actorUri() }))).status).toBe(403);
      const dotted = mallory.actorUri().replace("//localhost:", "//localhost.:");
      expect((await mallory.post(inbox(), like([dotted]))).status).toBe(403);
      const follow = await mallory.post(`${front.origin}/ap/actors/${author.id}/inbox`, {
        "@context": "https://www.w3.org/ns/activitystreams",
        id: `${mallory.origin}/follows/1`,
        type: "Follow",
        actor: [mallory.actorUri()],
        object: `${front.origin}/ap/actors/${author.id}`,
      });
      expect(follow.status).toBe(403);
      expect(mallory.received.filter((activity) => activity.type === "Accept")).toEqual([]);
      expect(await likesOf(post.id)).toBe(0);
    } finally {
      await app.inject({ method: "DELETE", url: "/api/federation/blocked-domains/localhost", headers: bearer(author) });
      await mallory.close();
    }
  });

  it("answers 400 to a deeply nested document before parsing it, and keeps answering", async () => {
    for (const [open, close] of [
      ["[", "]"],
      ['{"a":', "}"],
    ] as const) {
      // Under the inbox's 256 KiB: the depth, not the size, is what is refused.
      const depth = Math.floor(250_000 / (open.length + close.length));
      const body = `${open.repeat(depth)}1${close.repeat(depth)}`;
      const started = performance.now();
      const response = await fetch(inbox(), {
        method: "POST",
        headers: { "content-type": "application/activity+json" },
        body,
      });
      expect(response.status).toBe(400);
      expect((await response.json()).message).toMatch(/nested too deeply/);
      expect(performance.now() - started).toBeLessThan(2_000);
    }
    // 33 levels are too many for the API as well.
    const api = await app.inject({
      method: "POST",
      url: "/api/users/login",
      headers: { "content-type": "application/json" },
      payload: `${"[".repeat(33)}${"]".repeat(33)}`,
    });
    expect(api.statusCode).toBe(400);
    expect((await app.inject({ url: "/api/posts?limit=1" })).statusCode).toBe(200);
  });

  it("answers 400 to a signed activity holding a NUL", async () => {
    const response = await peer.post(
      inbox(),
      likeJson(`${peer.origin}/likes/nul`, peer.actorUri(), `${front.origin}/posts/nothing\u0000here`),
    );
    expect(response.status).toBe(400);
  });

  it("keeps no reply from an account whose username is not one", async () => {
    const post = await createPost(app, author, category, { title: "Odd names" });
    const postUri = new URL(`${front.origin}/posts/${post.id}`);
    const liars = [
      await startPeer("spoof", "127.0.0.1", { username: `ada@${front.host}\u202e@evil` }),
      await startPeer("spaces", "127.0.0.1", { username: "ada lovelace" }),
    ];
    try {
      for (const liar of liars) {
        const note = liar.note(postUri, "<p>Who am I?</p>", "liar");
        await liar.send(
          authorActor,
          new Create({ id: new URL(`${liar.origin}/creates/1`), actor: note.attributionId, object: note }),
        );
      }
      // Handling a reply reads its author from the liar's server: it must still be there.
      await vi.waitUntil(queueIsEmpty, WAIT);
    } finally {
      for (const liar of liars) await liar.close();
    }
    expect(await app.db.select().from(remoteReplies).where(eq(remoteReplies.postId, post.id))).toEqual([]);
    // A real username is kept, as `@name@host`.
    const note = peer.note(postUri, "<p>Hello</p>", "fine");
    await peer.send(
      authorActor,
      new Create({ id: new URL(`${peer.origin}/creates/fine`), actor: note.attributionId, object: note }),
    );
    const reply = await vi.waitUntil(
      async () => (await app.db.select().from(remoteReplies).where(eq(remoteReplies.postId, post.id)))[0],
      WAIT,
    );
    expect(reply.authorHandle).toBe(`@alice@${new URL(peer.origin).host}`);
  });

  it("keeps a follower's inboxes only on the follower's own host", async () => {
    const elsewhere = await startPeer("carol", "127.0.0.1", { inbox: "http://localhost:9/inbox" });
    const sharedElsewhere = await startPeer("dave", "127.0.0.1", { sharedInbox: "http://localhost:9/inbox" });
    try {
      const followed = (await elsewhere.lookup(`acct:ada-lovelace@${front.host}`)) as Person;
      await elsewhere.follow(followed);
      await sharedElsewhere.follow(followed);
      const dave = await vi.waitUntil(async () => {
        const [row] = await app.db
          .select()
          .from(remoteFollowers)
          .where(eq(remoteFollowers.followerUri, sharedElsewhere.actorUri()));
        return row;
      }, WAIT);
      expect(dave.sharedInbox).toBeNull();
      expect(dave.inbox).toBe(`${sharedElsewhere.origin}/users/dave/inbox`);
      await vi.waitUntil(queueIsEmpty, WAIT);
      const carol = await app.db
        .select()
        .from(remoteFollowers)
        .where(eq(remoteFollowers.followerUri, elsewhere.actorUri()));
      expect(carol).toEqual([]);
    } finally {
      await elsewhere.close();
      await sharedElsewhere.close();
    }
  });

  it("follows no redirect when it delivers", async () => {
    const target = await startListener((request, response) => {
      if (request.url === "/inbox") response.writeHead(307, { location: "/stolen" }).end();
      else response.writeHead(202).end();
    });
    try {
      await app.db.insert(remoteFollowers).values({
        actor: author.id,
        followerUri: `http://127.0.0.1:${target.port}/users/redirector`,
        inbox: `http://127.0.0.1:${target.port}/inbox`,
        sharedInbox: null,
        domain: "127.0.0.1",
      });
      await createPost(app, author, category, { title: "Redirected" });
      await vi.waitUntil(() => target.hits.includes("POST /inbox"), WAIT);
      // Fedify would try again at once; the queue's next attempt waits far longer than this.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(target.hits.filter((hit) => hit.includes("/stolen"))).toEqual([]);
    } finally {
      await app.db.delete(remoteFollowers).where(eq(remoteFollowers.domain, "127.0.0.1"));
      await target.close();
    }
  });

  it("shows no replies under a post taken back to a draft", async () => {
    const post = await createPost(app, author, category, { title: "Taken back" });
    expect((await app.inject({ url: `/api/federation/posts/${post.id}` })).statusCode).toBe(200);
    await app.inject({
      method: "PUT",
      url: `/api/posts/${post.id}`,
      headers: bearer(author),
      payload: { title: "Taken back", description: "<p>Later</p>", category, status: "draft" },
    });
    expect((await app.inject({ url: `/api/federation/posts/${post.id}` })).statusCode).toBe(404);
  });

  it("counts NodeInfo's users at most every few minutes, not at every request", async () => {
    const users = async () => (await app.inject({ url: "/nodeinfo/2.1" })).json().usage.users.total;
    const before = await users();
    await signUp(app, { firstName: "One", lastName: "More" });
    expect(await users()).toBe(before);
  });
});

/** Where the site federates on a public https address, deliveries never reach this machine. */
describe("deliveries from a public site", () => {
  it("refuses private addresses, by literal or by name, and http", async () => {
    const { guardedDelivery } = await import("../../../src/server/infra/delivery-guard.ts");
    const target = await startListener((_request, response) => response.writeHead(202).end());
    try {
      const deliver = (inbox: string) =>
        guardedDelivery(inbox, false, () => fetch(inbox, { method: "POST", body: "{}" }));
      await expect(deliver(`https://127.0.0.1:${target.port}/inbox`)).rejects.toThrow(/not a public address/);
      await expect(deliver(`https://[::1]:${target.port}/inbox`)).rejects.toThrow(/not a public address/);
      await expect(deliver(`http://example.com:${target.port}/inbox`)).rejects.toThrow(/not an https address/);
      // A name is resolved once, and the connection goes to the address that was checked.
      await expect(deliver(`https://localhost:${target.port}/inbox`)).rejects.toThrow();
      expect(target.hits).toEqual([]);
      // Outside a delivery, fetch is as it was.
      expect((await fetch(`http://127.0.0.1:${target.port}/x`)).status).toBe(202);
    } finally {
      await target.close();
    }
  });

  it("sends nothing to a follower whose inbox is on this machine", async () => {
    const target = await startListener((_request, response) => response.writeHead(202).end());
    const [database] = databaseTargets;
    const app = await buildTestApp(await (database as (typeof databaseTargets)[number]).open(), {
      env: { PUBLIC_URL: "https://blog.example.org", FEDERATION: "auto", FEDERATION_LEASE_MS: "5000" },
    });
    try {
      expect(app.config.federation).toMatchObject({ allowPrivateAddress: false });
      const author = await signUp(app, { firstName: "Grace", lastName: "Hopper" });
      for (const [name, host] of [
        ["literal", `127.0.0.1:${target.port}`],
        ["named", `localhost:${target.port}`],
      ] as const) {
        await app.db.insert(remoteFollowers).values({
          actor: author.id,
          followerUri: `https://${host}/users/${name}`,
          inbox: `https://${host}/users/${name}/inbox`,
          sharedInbox: null,
          domain: host.split(":")[0] as string,
        });
      }
      const category = (await createCategory(app, author, "Compilers")).title;
      await createPost(app, author, category, { title: "Not for the intranet" });
      // The literal address is dropped at once; the name fails when it is resolved, and waits to be tried again.
      await vi.waitUntil(async () => {
        const queued = await app.db.select({ message: federationQueue.message }).from(federationQueue);
        return queued.length === 1 && ((queued[0]?.message as { attempt?: number } | undefined)?.attempt ?? 0) >= 1;
      }, WAIT);
      expect(target.hits).toEqual([]);
    } finally {
      await app.close();
      await target.close();
    }
  });
});
