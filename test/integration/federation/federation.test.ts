import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import {
  Announce,
  Create,
  Delete,
  Flag,
  Follow,
  Group,
  Like,
  Note,
  Person,
  Tombstone,
  Undo,
  Update,
} from "@fedify/fedify/vocab";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { federationQueue, remoteFollowers, reports } from "../../../src/server/db/schema.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { type Peer, startFederatingApp, startPeer, type startTlsFront } from "../../support/fediverse.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

const AP = "application/activity+json";
/** Deliveries cross the queue (polled every second) and two servers: each wait is given this long. */
const WAIT = { timeout: 15_000, interval: 100 };

/**
 * Issue 21 against a real peer: a Fedify server of the test's own on loopback follows a Penchain author by `acct:`
 * (over https, as WebFinger requires), gets the post's Create with its whole text, then its Update and Delete.
 */
describe.each(databaseTargets)("federation with a real peer on $name", (target) => {
  let app: App;
  let front: Awaited<ReturnType<typeof startTlsFront>>;
  let peer: Peer;
  let author: Awaited<ReturnType<typeof signUp>>;
  let category: string;
  let authorActor: Person;

  let federating: Awaited<ReturnType<typeof startFederatingApp>>;
  beforeAll(async () => {
    federating = await startFederatingApp(await target.open());
    ({ app, front, peer } = federating);
    author = await signUp(app, { firstName: "Ada", lastName: "Lovelace" });
    category = (await createCategory(app, author, "Poetical Science")).title;
  }, 60_000);
  afterAll(() => federating?.close());

  const queueIsEmpty = async () =>
    (await app.db.select({ n: sql<number>`count(*)::int` }).from(federationQueue))[0]?.n === 0;
  const receivedOf = (type: string) => peer.received.filter((activity) => activity.type === type);

  it("gives every user a handle from their name, the next one numbered", async () => {
    const handleOf = async (user: { id: string }) => (await app.inject({ url: `/api/users/${user.id}` })).json().handle;
    expect(await handleOf(author)).toBe("ada-lovelace");
    const namesake = await signUp(app, { firstName: "Ada", lastName: "Lovelace" });
    expect(await handleOf(namesake)).toBe("ada-lovelace-2");
    const accented = await signUp(app, { firstName: "Zoë", lastName: "Ñúñez <script>" });
    expect(await handleOf(accented)).toBe("zoe-nunez-script");
  });

  it("answers WebFinger and NodeInfo", async () => {
    const finger = await app.inject({
      url: `/.well-known/webfinger?resource=${encodeURIComponent(`acct:ada-lovelace@${front.host}`)}`,
    });
    expect(finger.statusCode).toBe(200);
    const self = finger.json().links.find((link: { rel: string }) => link.rel === "self");
    expect(self.href).toBe(`${front.origin}/ap/actors/${author.id}`);
    const unknown = await app.inject({
      url: `/.well-known/webfinger?resource=${encodeURIComponent(`acct:nobody-here@${front.host}`)}`,
    });
    expect(unknown.statusCode).toBe(404);
    const nodeinfo = await app.inject({ url: "/nodeinfo/2.1" });
    expect(nodeinfo.json()).toMatchObject({ software: { name: "penchain" }, protocols: ["activitypub"] });
  });

  it("lets a peer find the author by acct: and follow them, and counts the follower apart", async () => {
    const found = await peer.lookup(`acct:ada-lovelace@${front.host}`);
    expect(found).toBeInstanceOf(Person);
    authorActor = found as Person;
    expect(authorActor.preferredUsername).toBe("ada-lovelace");
    expect(authorActor.name?.toString()).toBe("Ada Lovelace");
    expect(authorActor.url?.href).toBe(`${front.origin}/profile/${author.id}`);
    await peer.follow(authorActor);
    await vi.waitUntil(() => receivedOf("Accept").length === 1, WAIT);
    const profile = await app.inject({ url: `/api/users/profile/${author.id}`, headers: bearer(author) });
    expect(profile.json()).toMatchObject({ followersCount: 0, fediverseFollowersCount: 1 });
  });

  it("answers the profile and post addresses as ActivityStreams JSON to an ActivityPub client", async () => {
    const actor = await app.inject({ url: `/profile/${author.id}`, headers: { accept: AP } });
    expect(actor.statusCode).toBe(200);
    expect(actor.json()).toMatchObject({ type: "Person", preferredUsername: "ada-lovelace" });
    const post = await createPost(app, author, category, { title: "Negotiated" });
    const article = await app.inject({ url: `/posts/${post.id}`, headers: { accept: `${AP}, text/html;q=0.5` } });
    expect(article.json()).toMatchObject({ type: "Article", name: "Negotiated" });
    const page = await app.inject({ url: `/posts/${post.id}`, headers: { accept: "text/html" } });
    expect(page.headers["content-type"]).not.toContain("activity+json");
  });

  it("delivers a new post's whole text, then its edit and its deletion, in order", async () => {
    peer.received.length = 0;
    const html = `<p>The <strong>Analytical Engine</strong> weaves <a href="https://example.com/">patterns</a>.</p><p>${"More words. ".repeat(200)}</p>`;
    const post = await createPost(app, author, category, {
      title: 'Notes <on> the Engine & "more"',
      description: html,
    });
    const created = await vi.waitUntil(
      () => receivedOf("Create").find((activity) => JSON.stringify(activity.json).includes(post.id)),
      WAIT,
    );
    const object = created.json.object as Record<string, unknown>;
    expect(object.type).toBe("Article");
    expect(object.name).toBe('Notes <on> the Engine & "more"');
    expect(object.content).toContain("<strong>Analytical Engine</strong>");
    expect(object.content).toContain("More words. ".repeat(200).trim());
    expect(JSON.stringify(object.tag)).toContain("#PoeticalScience");

    const edited = await app.inject({
      method: "PUT",
      url: `/api/posts/${post.id}`,
      headers: bearer(author),
      payload: { title: "Notes, revised", description: "<p>Second thoughts</p>", category },
    });
    expect(edited.statusCode).toBe(200);
    const update = await vi.waitUntil(() => receivedOf("Update")[0], WAIT);
    expect((update.json.object as Record<string, unknown>).content).toBe("<p>Second thoughts</p>");

    const deleted = await app.inject({ method: "DELETE", url: `/api/posts/${post.id}`, headers: bearer(author) });
    expect(deleted.statusCode).toBe(200);
    await vi.waitUntil(() => receivedOf("Delete")[0], WAIT);
    const aboutThisPost = peer.received.filter((activity) => JSON.stringify(activity.json).includes(post.id));
    expect(aboutThisPost.map((activity) => activity.type)).toEqual(["Create", "Update", "Delete"]);
  });

  it("never federates a draft", async () => {
    peer.received.length = 0;
    const draft = await createPost(app, author, category, { title: "Not yet", status: "draft" });
    await createPost(app, author, category, { title: "Out now" });
    await vi.waitUntil(() => receivedOf("Create")[0], WAIT);
    await vi.waitUntil(queueIsEmpty, WAIT);
    expect(JSON.stringify(peer.received)).not.toContain(draft.id);
  });

  it("lets the site itself be followed, and announces every post to its followers", async () => {
    const site = await peer.lookup(`acct:blog@${front.host}`);
    expect(site).toBeInstanceOf(Group);
    peer.received.length = 0;
    await peer.follow(site as Group);
    await vi.waitUntil(() => receivedOf("Accept")[0], WAIT);
    peer.received.length = 0;
    const post = await createPost(app, author, category, { title: "For everyone" });
    const announce = await vi.waitUntil(() => receivedOf("Announce")[0], WAIT);
    expect(announce.actor).toBe(`${front.origin}/ap/actors/site`);
    expect(JSON.stringify(announce.json)).toContain(`/posts/${post.id}`);
  });

  it("refuses an unsigned activity and one signed by a key that is not its actor's", async () => {
    const note = peer.note(new URL(`${front.origin}/posts/x`), "<p>forged</p>");
    const create = new Create({
      id: new URL(`${peer.origin}/creates/1`),
      actor: new URL(peer.actorUri()),
      object: note,
    });
    const body = JSON.stringify(await create.toJsonLd());
    const unsigned = await app.inject({
      method: "POST",
      url: "/ap/inbox",
      headers: { "content-type": AP },
      payload: body,
    });
    expect(unsigned.statusCode).toBe(401);
    // Signed by the peer's key, but claiming to come from someone else.
    const mallory = await startPeer("mallory");
    try {
      const impersonation = new Create({
        id: new URL(`${mallory.origin}/creates/2`),
        actor: new URL(peer.actorUri()),
        object: note,
      });
      await expect(mallory.send(authorActor, impersonation)).rejects.toThrow(/401/);
    } finally {
      await mallory.close();
    }
    const huge = await app.inject({
      method: "POST",
      url: "/ap/inbox",
      headers: { "content-type": AP },
      payload: JSON.stringify({ type: "Create", padding: "x".repeat(300 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
  });

  it("shows replies from the fediverse under the post once its author approves the first one", async () => {
    const post = await createPost(app, author, category, { title: "Reply to me" });
    const postUri = new URL(`${front.origin}/posts/${post.id}`);
    const fediverse = async () => {
      const response = await app.inject({ url: `/api/federation/posts/${post.id}` });
      if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
      return response.json();
    };
    const nasty = `<p>Hi <script>alert(1)</script><img src=x onerror=alert(2)> <a href="javascript:alert(3)">x</a> <a href="https://example.com/ok">ok</a></p>`;
    const first = peer.note(postUri, nasty, "first").clone({ url: new URL("javascript:alert(4)") });
    await peer.send(
      authorActor,
      new Create({ id: new URL(`${peer.origin}/creates/first`), actor: new URL(peer.actorUri()), object: first }),
    );
    const pending = await vi.waitUntil(async () => {
      const waiting = (await app.inject({ url: "/api/federation/replies/pending", headers: bearer(author) })).json();
      return waiting.find((reply: { postId: string }) => reply.postId === post.id);
    }, WAIT);
    expect((await fediverse()).replies).toEqual([]);
    expect(pending).toMatchObject({ authorName: "Alice of the Fediverse", postTitle: "Reply to me" });
    expect(pending.authorHandle).toBe(`@alice@${new URL(peer.origin).host}`);
    expect(pending.content).not.toMatch(/script|onerror|javascript|<img/);
    expect(pending.content).toContain('<a href="https://example.com/ok"');
    // A link to the original that is not http(s) is not kept: the reply's own id is linked instead.
    expect(pending.url).toBe(`${peer.origin}/notes/first`);

    // Only the post's author (or an admin) decides.
    const stranger = await signUp(app, { firstName: "Eve", lastName: "Stranger" });
    const refused = await app.inject({
      method: "PUT",
      url: `/api/federation/replies/${pending.id}/approve`,
      headers: bearer(stranger),
    });
    expect(refused.statusCode).toBe(403);
    const approved = await app.inject({
      method: "PUT",
      url: `/api/federation/replies/${pending.id}/approve`,
      headers: bearer(author),
    });
    expect(approved.statusCode).toBe(200);
    expect((await fediverse()).replies).toHaveLength(1);

    // The next reply of an approved account shows at once; its edit and deletion follow it.
    const second = peer.note(postUri, "<p>Second thought</p>", "second");
    await peer.send(
      authorActor,
      new Create({ id: new URL(`${peer.origin}/creates/second`), actor: new URL(peer.actorUri()), object: second }),
    );
    await vi.waitUntil(async () => (await fediverse()).replies.length === 2, WAIT);
    const edited = peer.note(postUri, "<p>Third thought</p>", "second");
    await peer.send(
      authorActor,
      new Update({ id: new URL(`${peer.origin}/updates/second`), actor: new URL(peer.actorUri()), object: edited }),
    );
    await vi.waitUntil(
      async () =>
        (await fediverse()).replies.some((reply: { content: string }) => reply.content === "<p>Third thought</p>"),
      WAIT,
    );
    await peer.send(
      authorActor,
      new Delete({
        id: new URL(`${peer.origin}/deletes/second`),
        actor: new URL(peer.actorUri()),
        object: new Tombstone({ id: second.id }),
      }),
    );
    await vi.waitUntil(async () => (await fediverse()).replies.length === 1, WAIT);

    // Likes and boosts count apart from local likes, and an Undo takes one back.
    const like = new Like({ id: new URL(`${peer.origin}/likes/1`), actor: new URL(peer.actorUri()), object: postUri });
    await peer.send(authorActor, like);
    await peer.send(
      authorActor,
      new Announce({ id: new URL(`${peer.origin}/announces/1`), actor: new URL(peer.actorUri()), object: postUri }),
    );
    await vi.waitUntil(async () => {
      const counts = await fediverse();
      return counts.likes === 1 && counts.boosts === 1;
    }, WAIT);
    await peer.send(
      authorActor,
      new Undo({ id: new URL(`${peer.origin}/undos/1`), actor: new URL(peer.actorUri()), object: like }),
    );
    await vi.waitUntil(async () => (await fediverse()).likes === 0, WAIT);
    const local = await app.inject({ url: `/api/posts/${post.id}` });
    expect(local.json().likesCount).toBe(0);

    // The post's author removes a reply.
    const removed = await app.inject({
      method: "DELETE",
      url: `/api/federation/replies/${pending.id}`,
      headers: bearer(author),
    });
    expect(removed.statusCode).toBe(200);
    expect((await fediverse()).replies).toEqual([]);
  });

  it("takes a peer's Flag into the queue without its reporter, and forwards a reader's report of a reply as the site's Flag", async () => {
    const moderator = await signUp(app);
    await makeAdmin(app, moderator.id);
    const reader = await signUp(app);
    const post = await createPost(app, author, category, { title: "Flagged from afar" });
    const postUri = new URL(`${front.origin}/posts/${post.id}`);
    await peer.send(
      authorActor,
      new Flag({
        id: new URL(`${peer.origin}/flags/1`),
        actor: new URL(peer.actorUri()),
        // Our post, our author, and things of other servers' and nonsense, which are not ours to judge.
        objects: [
          postUri,
          new URL(`${front.origin}/ap/actors/${author.id}`),
          new URL("https://elsewhere.example/notes/1"),
          new URL(`${front.origin}/ap/actors/not-a-uuid`),
        ],
        content: "<p>Spam <script>alert(1)</script>links</p>",
      }),
    );
    const queued = async () => {
      const queue = await app.inject({ url: "/api/moderation/reports?status=open", headers: bearer(moderator) });
      return queue.json().items as { target: { kind: string; id: string } }[];
    };
    const items = await vi.waitUntil(async () => {
      const open = (await queued()).filter((item) => [post.id, author.id].includes(item.target.id));
      return open.length === 2 ? open : null;
    }, WAIT);
    const fromAfar = await app.inject({
      url: "/api/moderation/reports?status=open&origin=remote&limit=50",
      headers: bearer(moderator),
    });
    expect(fromAfar.json().items.map((item: { target: { id: string } }) => item.target.id)).toEqual(
      expect.arrayContaining([post.id, author.id]),
    );
    const shown = JSON.stringify(items);
    expect(shown).toContain("A report from another server");
    expect(shown).not.toContain(peer.actorUri());
    expect(shown).not.toContain("<script>");
    // The same server's second Flag of the same post while it is open adds nothing.
    await peer.send(
      authorActor,
      new Flag({ id: new URL(`${peer.origin}/flags/2`), actor: new URL(peer.actorUri()), object: postUri }),
    );
    await vi.waitUntil(async () => queueIsEmpty(), WAIT);
    const [again] = await app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(reports)
      .where(eq(reports.targetId, post.id));
    expect(again?.n).toBe(1);

    // A reader reports a reply from the peer and asks for its server to be told: the peer gets the site's Flag.
    peer.received.length = 0;
    await peer.send(
      authorActor,
      new Create({
        id: new URL(`${peer.origin}/creates/flagged`),
        actor: new URL(peer.actorUri()),
        object: peer.note(postUri, "<p>Buy followers now</p>", "flagged"),
      }),
    );
    const reply = await vi.waitUntil(async () => {
      const replies = (await app.inject({ url: `/api/federation/posts/${post.id}` })).json().replies;
      return replies.find((entry: { content: string }) => entry.content.includes("Buy followers"));
    }, WAIT);
    const reported = await app.inject({
      method: "POST",
      url: "/api/reports",
      headers: bearer(reader),
      payload: { kind: "remote-reply", id: reply.id, rule: "spam", note: "Selling followers", forward: true },
    });
    expect(reported.statusCode).toBe(201);
    const flag = await vi.waitUntil(() => receivedOf("Flag")[0], WAIT);
    expect(flag.actor).toBe(`${front.origin}/ap/actors/site`);
    const sent = JSON.stringify(flag.json);
    expect(sent).toContain(peer.actorUri());
    expect(sent).toContain(`${peer.origin}/notes/flagged`);
    expect(sent).toContain("Selling followers");
    expect(sent).not.toContain(reader.id);
  });

  it("ignores a reply posted in another account's name", async () => {
    const post = await createPost(app, author, category, { title: "Impersonation target" });
    const note = peer.note(new URL(`${front.origin}/posts/${post.id}`), "<p>I am someone else</p>", "forged");
    const forged = new Create({
      id: new URL(`${peer.origin}/creates/forged`),
      actor: new URL(peer.actorUri()),
      object: new Note({
        id: note.id,
        attribution: new URL("https://elsewhere.example/users/bob"),
        content: "<p>I am someone else</p>",
        replyTarget: new URL(`${front.origin}/posts/${post.id}`),
      }),
    });
    await peer.send(authorActor, forged);
    await vi.waitUntil(queueIsEmpty, WAIT);
    const waiting = (await app.inject({ url: "/api/federation/replies/pending", headers: bearer(author) })).json();
    expect(waiting.filter((reply: { postId: string }) => reply.postId === post.id)).toEqual([]);
  });

  it("refuses a blocked domain's activities and drops its followers", async () => {
    const admin = author; // the first account is the admin
    const mallory = await startPeer("mallory", "localhost");
    try {
      const target = (await mallory.lookup(`${front.origin}/ap/actors/${author.id}`)) as Person;
      await mallory.follow(target);
      await vi.waitUntil(
        async () =>
          (await app.db.select().from(remoteFollowers).where(eq(remoteFollowers.domain, "localhost"))).length === 1,
        WAIT,
      );
      const blocked = await app.inject({
        method: "POST",
        url: "/api/federation/blocked-domains",
        headers: bearer(admin),
        payload: { domain: "https://LOCALHOST:8080/whatever" },
      });
      expect(blocked.statusCode).toBe(201);
      expect(blocked.json()).toEqual([expect.objectContaining({ domain: "localhost" })]);
      expect(await app.db.select().from(remoteFollowers).where(eq(remoteFollowers.domain, "localhost"))).toEqual([]);
      const reader = await signUp(app, { firstName: "Not", lastName: "Admin" });
      const notAdmin = await app.inject({
        method: "POST",
        url: "/api/federation/blocked-domains",
        headers: bearer(reader),
        payload: { domain: "x.example" },
      });
      expect(notAdmin.statusCode).toBe(403);
      const ownHost = await app.inject({
        method: "POST",
        url: "/api/federation/blocked-domains",
        headers: bearer(admin),
        payload: { domain: "127.0.0.1" },
      });
      expect(ownHost.statusCode).toBe(400);
      const post = await createPost(app, author, category, { title: "Blocked reply target" });
      const note = mallory.note(new URL(`${front.origin}/posts/${post.id}`), "<p>spam</p>", "spam");
      const create = new Create({
        id: new URL(`${mallory.origin}/creates/spam`),
        actor: new URL(mallory.actorUri()),
        object: note,
      });
      await expect(mallory.send(target, create)).rejects.toThrow(/403/);
      await app.inject({ method: "DELETE", url: "/api/federation/blocked-domains/localhost", headers: bearer(admin) });
    } finally {
      await mallory.close();
    }
  });

  it("stops delivering once the peer unfollows", async () => {
    const follows = await app.db.select().from(remoteFollowers).where(eq(remoteFollowers.actor, author.id));
    expect(follows).toHaveLength(1);
    await peer.unfollow(authorActor, new Follow({ id: null, actor: new URL(peer.actorUri()), object: authorActor.id }));
    await vi.waitUntil(
      async () =>
        (await app.db.select().from(remoteFollowers).where(eq(remoteFollowers.actor, author.id))).length === 0,
      WAIT,
    );
    const unheard = await createPost(app, author, category, { title: "Nobody on the peer hears this" });
    await vi.waitUntil(queueIsEmpty, WAIT);
    // The peer still follows the site, which announces the post; the author's Create goes to nobody.
    expect(receivedOf("Announce").some((activity) => JSON.stringify(activity.json).includes(unheard.id))).toBe(true);
    expect(receivedOf("Create").filter((activity) => JSON.stringify(activity.json).includes(unheard.id))).toEqual([]);
  });

  it("keeps an old handle resolving after a change, and refuses a taken or reserved one", async () => {
    const change = (handle: string) =>
      app.inject({
        method: "PUT",
        url: "/api/users",
        headers: bearer(author),
        payload: { firstName: "Ada", lastName: "Lovelace", email: author.email, bio: "Countess", handle },
      });
    expect((await change("ada-lovelace-2")).statusCode).toBe(409);
    expect((await change("blog")).statusCode).toBe(400);
    // The peer follows again, and hears of the new handle from the actor's Update.
    peer.received.length = 0;
    await peer.follow(authorActor);
    await vi.waitUntil(() => receivedOf("Accept")[0], WAIT);
    const renamed = await change("@Countess_Ada");
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().handle).toBe("countess_ada");
    const update = await vi.waitUntil(
      () => receivedOf("Update").find((activity) => (activity.json.object as { type?: string }).type === "Person"),
      WAIT,
    );
    expect((update.json.object as { preferredUsername?: string }).preferredUsername).toBe("countess_ada");
    for (const handle of ["countess_ada", "ada-lovelace"]) {
      const found = await peer.lookup(`acct:${handle}@${front.host}`);
      expect(found?.id?.href).toBe(`${front.origin}/ap/actors/${author.id}`);
    }
    const actor = await app.inject({ url: `/ap/actors/${author.id}`, headers: { accept: AP } });
    expect(actor.json().preferredUsername).toBe("countess_ada");
  });

  it("is found by `npm run lookup`, as a remote server finds an author and a post", async () => {
    const post = await createPost(app, author, category, { title: "Looked up" });
    const lookup = (query: string) =>
      promisify(execFile)(process.execPath, [path.resolve("scripts/lookup.ts"), "--allow-private", query], {
        env: { ...process.env, NODE_EXTRA_CA_CERTS: front.certFile },
      });
    const person = JSON.parse((await lookup(`acct:countess_ada@${front.host}`)).stdout);
    expect(person).toMatchObject({ type: "Person", preferredUsername: "countess_ada", name: "Ada Lovelace" });
    const article = JSON.parse((await lookup(`${front.origin}/posts/${post.id}`)).stdout);
    expect(article).toMatchObject({ type: "Article", name: "Looked up" });
    await expect(lookup(`acct:nobody-at-all@${front.host}`)).rejects.toThrow(/Nothing found/);
  });

  it("serves an article only for a published post", async () => {
    const draft = await createPost(app, author, category, { title: "Drafted", status: "draft" });
    const response = await app.inject({ url: `/posts/${draft.id}`, headers: { accept: AP } });
    expect(response.statusCode).toBe(404);
    expect(await peer.lookup(`${front.origin}/posts/${draft.id}`)).toBeNull();
  });
});
