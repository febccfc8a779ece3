import { Article, Create, Follow, Group, Person } from "@fedify/fedify/vocab";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../src/server/app.ts";
import { federationQueue, remoteFollowers } from "../../src/server/db/schema.ts";
import { buildTestApp } from "../support/app.ts";
import { createCategory, createPost } from "../support/content.ts";
import { databaseTargets } from "../support/databases.ts";
import { eventually, type Peer, startPeer, startTlsFront } from "../support/fediverse.ts";
import { bearer, signUp } from "../support/users.ts";

const AP = "application/activity+json";

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

  beforeAll(async () => {
    front = await startTlsFront();
    app = await buildTestApp(await target.open(), {
      env: { PUBLIC_URL: front.origin, FEDERATION: "on", FEDERATION_LEASE_MS: "5000" },
    });
    await app.listen({ host: "127.0.0.1", port: 0 });
    front.target((app.server.address() as { port: number }).port);
    peer = await startPeer();
    author = await signUp(app, { firstName: "Ada", lastName: "Lovelace" });
    category = (await createCategory(app, author, "Poetical Science")).title;
  }, 60_000);
  afterAll(async () => {
    await peer?.close();
    await app?.close();
    await front?.close();
  });

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
    await eventually(() => receivedOf("Accept").length === 1, "the Accept");
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
    const created = await eventually(
      () => receivedOf("Create").find((activity) => JSON.stringify(activity.json).includes(post.id)),
      "the Create",
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
    const update = await eventually(() => receivedOf("Update")[0], "the Update");
    expect((update.json.object as Record<string, unknown>).content).toBe("<p>Second thoughts</p>");

    const deleted = await app.inject({ method: "DELETE", url: `/api/posts/${post.id}`, headers: bearer(author) });
    expect(deleted.statusCode).toBe(200);
    await eventually(() => receivedOf("Delete")[0], "the Delete");
    const aboutThisPost = peer.received.filter((activity) => JSON.stringify(activity.json).includes(post.id));
    expect(aboutThisPost.map((activity) => activity.type)).toEqual(["Create", "Update", "Delete"]);
  });

  it("never federates a draft", async () => {
    peer.received.length = 0;
    const draft = await createPost(app, author, category, { title: "Not yet", status: "draft" });
    await createPost(app, author, category, { title: "Out now" });
    await eventually(() => receivedOf("Create")[0], "the published post's Create");
    await eventually(queueIsEmpty, "the queue to drain");
    expect(JSON.stringify(peer.received)).not.toContain(draft.id);
  });

  it("lets the site itself be followed, and announces every post to its followers", async () => {
    const site = await peer.lookup(`acct:blog@${front.host}`);
    expect(site).toBeInstanceOf(Group);
    peer.received.length = 0;
    await peer.follow(site as Group);
    await eventually(() => receivedOf("Accept")[0], "the site's Accept");
    peer.received.length = 0;
    const post = await createPost(app, author, category, { title: "For everyone" });
    const announce = await eventually(() => receivedOf("Announce")[0], "the Announce");
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

  it("stops delivering once the peer unfollows", async () => {
    const follows = await app.db.select().from(remoteFollowers).where(eq(remoteFollowers.actor, author.id));
    expect(follows).toHaveLength(1);
    await peer.unfollow(authorActor, new Follow({ id: null, actor: new URL(peer.actorUri()), object: authorActor.id }));
    await eventually(
      async () =>
        (await app.db.select().from(remoteFollowers).where(eq(remoteFollowers.actor, author.id))).length === 0,
      "the follower to be removed",
    );
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
    const renamed = await change("@Countess_Ada");
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().handle).toBe("countess_ada");
    for (const handle of ["countess_ada", "ada-lovelace"]) {
      const found = await peer.lookup(`acct:${handle}@${front.host}`);
      expect(found?.id?.href).toBe(`${front.origin}/ap/actors/${author.id}`);
    }
    const actor = await app.inject({ url: `/ap/actors/${author.id}`, headers: { accept: AP } });
    expect(actor.json().preferredUsername).toBe("countess_ada");
  });

  it("serves an article only for a published post", async () => {
    const draft = await createPost(app, author, category, { title: "Drafted", status: "draft" });
    const response = await app.inject({ url: `/posts/${draft.id}`, headers: { accept: AP } });
    expect(response.statusCode).toBe(404);
    expect(await peer.lookup(`${front.origin}/posts/${draft.id}`)).toBeNull();
    expect(Article).toBeDefined();
  });
});
