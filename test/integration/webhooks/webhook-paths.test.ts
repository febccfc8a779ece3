import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { emailSubscriptions, mailOutbox, webhookDeliveries, webhookEndpoints } from "../../../src/server/db/schema.ts";
import { eraseClosedAccounts } from "../../../src/server/services/leaving/closing.ts";
import { eraseSuspended } from "../../../src/server/services/moderation/suspension.ts";
import { createWebhookSender, FAILING_FOR_MS } from "../../../src/server/services/webhooks/sender.ts";
import { buildTestApp } from "../../support/app.ts";
import { commentOn, createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { makeToken } from "../../support/tokens.ts";
import { bearer, signUp } from "../../support/users.ts";
import { makeEndpoint, queuedFor, type Receiver, startReceiver } from "../../support/webhooks.ts";

type Session = Awaited<ReturnType<typeof signUp>>;
const DAY = 24 * 60 * 60_000;
const FORMER = { firstName: "A former", lastName: "member", profilePhoto: null };

/**
 * Issue 61: every path that changes what the public sees writes its event in its own transaction, once: a held
 * comment let through, a block, a suspension and its lifting, an account closed or erased; and an endpoint that keeps
 * failing is disabled after 5 days whether or not anything is being sent to it.
 */
describe.each(databaseTargets)("webhook events on every path on $name", (target) => {
  let app: App;
  let receiver: Receiver;
  let admin: Session;
  let author: Session;
  let category: string;

  beforeAll(async () => {
    app = await buildTestApp(await target.open());
    receiver = await startReceiver();
    admin = await signUp(app, { firstName: "Grace", lastName: "Hopper" });
    author = await signUp(app, { firstName: "Ada", lastName: "Lovelace" });
    category = (await createCategory(app, admin)).title;
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  const call = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, who: Session | null, payload?: object) =>
    app.inject({ method, url, payload, headers: who ? bearer(who) : {} });
  const act = (kind: string, id: string, action: string) =>
    call("POST", "/api/moderation/actions", admin, { target: { kind, id }, action, rule: "spam", note: "" });
  const hook = (who: Session, path: string, events: string[]) => makeEndpoint(app, who, receiver.url(path), events);
  const types = async (endpointId: string) => (await queuedFor(app, endpointId)).map((event) => event.type);

  it("tells comment.created once a held comment is let through, by a moderator or by the post's author", async () => {
    const endpoint = await hook(author, "/comments", ["comment.created", "comment.deleted"]);
    const post = await createPost(app, author, category, { title: "Open thread" });
    const reader = await signUp(app, { firstName: "Charles", lastName: "Babbage" });
    // The filter holds it: nobody but its writer sees it, and no event is written.
    const held = await call("POST", "/api/comments", reader, { postId: post.id, description: "what a load of sh1t" });
    expect(held.json().waitingForReview).toBe(true);
    expect(await types(endpoint.id)).toEqual([]);

    expect((await act("comment", held.json().id, "restore")).statusCode).toBe(200);
    const shown = await call("GET", `/api/comments/${held.json().id}`, author);
    expect(shown.statusCode).toBe(200);
    const [created] = await queuedFor(app, endpoint.id);
    // The public shape, as the post's author reads it now.
    expect(created).toMatchObject({ type: "comment.created", data: shown.json() });
    expect(created?.data).toMatchObject({ waitingForReview: false, user: { id: reader.id } });

    // Hidden, then restored: gone, then shown again, each once.
    expect((await act("comment", held.json().id, "hide")).statusCode).toBe(200);
    expect((await act("comment", held.json().id, "restore")).statusCode).toBe(200);
    const events = await queuedFor(app, endpoint.id);
    expect(events.map((event) => event.type)).toEqual(["comment.created", "comment.deleted", "comment.created"]);
    expect(events[1]?.data).toEqual({ id: held.json().id, postId: post.id });

    // A first-time commenter's comment waits for the author; approving it is its one comment.created.
    await call("PUT", "/api/comments/settings", author, { holdFirstComments: true });
    const newcomer = await signUp(app, { firstName: "Mary", lastName: "Somerville" });
    const waiting = await commentOn(app, newcomer, post.id, "Lovely engine");
    expect(await types(endpoint.id)).toHaveLength(3);
    expect((await call("POST", `/api/comments/${waiting.id}/approve`, author)).statusCode).toBe(200);
    expect((await call("POST", `/api/comments/${waiting.id}/approve`, author)).statusCode).toBe(404);
    const after = await queuedFor(app, endpoint.id);
    expect(after.slice(3)).toEqual([
      expect.objectContaining({
        type: "comment.created",
        data: expect.objectContaining({ id: waiting.id, description: "Lovely engine", user: expect.any(Object) }),
      }),
    ]);
    // A declined one was never shown: no event.
    const declined = await commentOn(app, await signUp(app), post.id, "Declined");
    expect((await call("POST", `/api/comments/${declined.id}/decline`, author)).statusCode).toBe(200);
    expect(await types(endpoint.id)).toHaveLength(4);
    await call("PUT", "/api/comments/settings", author, { holdFirstComments: false });
  });

  it("tells both sides of a block the follows it ended, and the blocker the comments it hid and brought back", async () => {
    const blocker = await signUp(app, { firstName: "Hedy", lastName: "Lamarr" });
    const blocked = await signUp(app, { firstName: "George", lastName: "Antheil" });
    const blockerHook = await hook(blocker, "/blocker", ["follower.deleted", "comment.deleted", "comment.created"]);
    const blockedHook = await hook(blocked, "/blocked", ["follower.deleted"]);
    const post = await createPost(app, blocker, category, { title: "Frequency hopping" });
    for (const [who, followId] of [
      [blocker, blocked.id],
      [blocked, blocker.id],
    ] as const)
      expect((await call("PUT", "/api/users/follow", who, { followId })).statusCode).toBe(200);
    const comment = await commentOn(app, blocked, post.id, "Pianos, synchronised");
    const before = (await queuedFor(app, blockerHook.id)).length;

    expect((await call("POST", `/api/users/block/${blocked.id}`, blocker)).statusCode).toBe(200);
    const told = (await queuedFor(app, blockerHook.id)).slice(before);
    expect(told).toEqual(
      expect.arrayContaining([
        {
          type: "follower.deleted",
          data: { follower: expect.objectContaining({ id: blocked.id, firstName: "George" }), followeeId: blocker.id },
          deliveryId: expect.any(String),
        },
        { type: "comment.deleted", data: { id: comment.id, postId: post.id }, deliveryId: expect.any(String) },
      ]),
    );
    expect(told).toHaveLength(2);
    expect(await queuedFor(app, blockedHook.id)).toEqual([
      expect.objectContaining({
        type: "follower.deleted",
        data: { follower: expect.objectContaining({ id: blocker.id }), followeeId: blocked.id },
      }),
    ]);

    expect((await call("DELETE", `/api/users/block/${blocked.id}`, blocker)).statusCode).toBe(200);
    const back = (await queuedFor(app, blockerHook.id)).slice(before + 2);
    expect(back).toEqual([
      expect.objectContaining({ type: "comment.created", data: expect.objectContaining({ id: comment.id }) }),
    ]);
  });

  it("tells a suspension's hidden comments gone and its lifting's back; on the account's own posts, the post's event says it", async () => {
    const writer = await signUp(app, { firstName: "Alan", lastName: "Turing" });
    const authorHook = await hook(author, "/suspension-author", ["comment.created", "comment.deleted"]);
    const writerHook = await hook(writer, "/suspension-writer", [
      "comment.created",
      "comment.deleted",
      "post.published",
      "post.unpublished",
    ]);
    const onAuthors = await createPost(app, author, category, { title: "Computable numbers" });
    const comment = await commentOn(app, writer, onAuthors.id, "On computable numbers");
    const own = await createPost(app, writer, category, { title: "The imitation game" });
    await commentOn(app, writer, own.id, "My own note");
    const authorBefore = (await queuedFor(app, authorHook.id)).length;
    const writerBefore = (await queuedFor(app, writerHook.id)).length;

    expect((await act("user", writer.id, "suspend")).statusCode).toBe(200);
    expect((await act("user", writer.id, "restore")).statusCode).toBe(200);
    const toAuthor = (await queuedFor(app, authorHook.id)).slice(authorBefore);
    expect(toAuthor.map((event) => [event.type, event.data.id])).toEqual([
      ["comment.deleted", comment.id],
      ["comment.created", comment.id],
    ]);
    const toWriter = (await queuedFor(app, writerHook.id)).slice(writerBefore);
    expect(toWriter.map((event) => [event.type, event.data.id])).toEqual([
      ["post.unpublished", own.id],
      ["post.published", own.id],
    ]);
  });

  it("tells an erased account's follows, subscribers and public posts gone, naming it a former member", async () => {
    const leaver = await signUp(app, { firstName: "Rosalind", lastName: "Franklin" });
    const followed = await hook(author, "/followed", ["follower.deleted", "subscriber.deleted"]);
    const site = await hook(admin, "/site-posts", ["post.deleted", "follower.deleted"]);
    const leaversOwn = await hook(leaver, "/leaver", ["post.deleted", "follower.deleted"]);
    expect((await call("PUT", "/api/users/follow", leaver, { followId: author.id })).statusCode).toBe(200);
    const [subscription] = await app.db
      .insert(emailSubscriptions)
      .values({ authorId: author.id, email: leaver.email.toLowerCase(), status: "active", confirmedAt: new Date() })
      .returning();
    const post = await createPost(app, leaver, category, { title: "Photo 51" });
    const draft = await createPost(app, leaver, category, { title: "Unseen", status: "draft" });
    const before = (await queuedFor(app, followed.id)).length;
    const siteBefore = (await queuedFor(app, site.id)).length;

    expect(
      (await call("POST", "/api/users/close", leaver, { password: leaver.password, keepPosts: false })).statusCode,
    ).toBe(202);
    expect(await types(followed.id)).toHaveLength(before);
    expect(await eraseClosedAccounts(app.deps, new Date(Date.now() + 15 * DAY))).toBe(1);

    const toAuthor = (await queuedFor(app, followed.id)).slice(before);
    expect(toAuthor).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: "follower.deleted",
          data: { follower: { _id: leaver.id, id: leaver.id, ...FORMER }, followeeId: author.id },
        }),
        expect.objectContaining({
          type: "subscriber.deleted",
          data: { id: subscription?.id, authorId: author.id, email: leaver.email.toLowerCase() },
        }),
      ]),
    );
    expect(toAuthor).toHaveLength(2);
    const toSite = (await queuedFor(app, site.id)).slice(siteBefore);
    // The public post is told deleted; the draft never was public.
    expect(toSite.filter((event) => event.type === "post.deleted").map((event) => event.data)).toEqual([
      { id: post.id, authorId: leaver.id },
    ]);
    expect(JSON.stringify(toSite)).not.toContain(draft.id);
    expect(JSON.stringify(toSite)).not.toContain("Rosalind");
    // The account's own endpoints went with it.
    expect(await app.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, leaversOwn.id))).toEqual([]);
  });

  it("tells a suspended account's followees it is gone when it is erased, as a former member", async () => {
    const follower = await signUp(app, { firstName: "Kurt", lastName: "Gödel" });
    const followed = await hook(author, "/followed-suspended", ["follower.deleted"]);
    expect((await call("PUT", "/api/users/follow", follower, { followId: author.id })).statusCode).toBe(200);
    expect((await act("user", follower.id, "suspend")).statusCode).toBe(200);
    // Suspended, the follow still counts: nothing yet.
    expect(await types(followed.id)).toEqual([]);
    expect(await eraseSuspended({ db: app.db, log: app.log }, new Date(Date.now() + 31 * DAY))).toBe(1);
    expect(await queuedFor(app, followed.id)).toEqual([
      expect.objectContaining({
        type: "follower.deleted",
        data: { follower: { _id: follower.id, id: follower.id, ...FORMER }, followeeId: author.id },
      }),
    ]);
  });

  it("lets an admin's token follow the site only with the admin scope; without it, its owner's own events", async () => {
    const create = (headers: Record<string, string>, path: string, events: string[]) =>
      app.inject({ method: "POST", url: "/api/webhooks", payload: { url: receiver.url(path), events }, headers });
    const plain = await makeToken(app, admin, ["webhooks:write"]);
    const refused = await create(plain.headers, "/token-site", ["user.registered"]);
    expect(refused.statusCode).toBe(403);
    const own = await create(plain.headers, "/token-own", ["post.published"]);
    expect(own.statusCode, own.body).toBe(201);
    const staff = await makeToken(app, admin, ["webhooks:write", "admin"]);
    const site = await create(staff.headers, "/token-site", ["user.registered", "post.published"]);
    expect(site.statusCode, site.body).toBe(201);
    // Nor can the plain token widen its endpoint to the site's events afterwards.
    const widened = await app.inject({
      method: "PATCH",
      url: `/api/webhooks/${own.json().id}`,
      payload: { events: ["post.published", "user.registered"] },
      headers: plain.headers,
    });
    expect(widened.statusCode).toBe(403);

    const authors = await createPost(app, author, category, { title: "Someone else's" });
    const admins = await createPost(app, admin, category, { title: "The admin's own" });
    const newcomer = await signUp(app, { firstName: "Katherine", lastName: "Johnson" });
    expect((await queuedFor(app, own.json().id)).map((event) => event.data.id)).toEqual([admins.id]);
    expect((await queuedFor(app, site.json().id)).map((event) => event.data.id)).toEqual([
      authors.id,
      admins.id,
      newcomer.id,
    ]);
  });

  it("disables an endpoint whose deliveries keep failing once its first failure is 5 days old, and mails its owner once", async () => {
    const owner = await signUp(app, { firstName: "Emmy", lastName: "Noether" });
    const endpoint = await hook(owner, "/down", ["post.published"]);
    receiver.answer("/down", ...Array(50).fill(503));
    let now = new Date();
    const sender = createWebhookSender(app.deps, { now: () => now });
    const run = async () => {
      sender.wake();
      await sender.idle();
    };
    const state = async () => {
      const [row] = await app.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
      return row;
    };
    const disabledMails = async () =>
      (await app.db.select().from(mailOutbox).where(eq(mailOutbox.to, owner.email))).filter(
        (mail) => mail.subject === "A webhook of yours was disabled",
      );

    await createPost(app, owner, category, { title: "Invariants" });
    const start = Date.now();
    now = new Date(start);
    // The app's own sender may be first: either way, one failed attempt.
    await app.webhooks.idle();
    await run();
    expect(receiver.hits("/down").length).toBeGreaterThanOrEqual(1);
    const firstFailure = (await state())?.failingSince as Date;
    expect(firstFailure).toBeInstanceOf(Date);

    // Four days on, it has failed every retry: still on.
    now = new Date(start + 4 * DAY);
    await run();
    expect(receiver.hits("/down").length).toBeGreaterThanOrEqual(2);
    expect((await state())?.disabledAt).toBeNull();

    // Its last retries are far off: nothing is sent now, and 5 days after the first failure it is disabled.
    now = new Date(firstFailure.getTime() + FAILING_FOR_MS + 60_000);
    const hitsBefore = receiver.hits("/down").length;
    await run();
    expect(await state()).toMatchObject({ disabledReason: "it failed every delivery for 5 days" });
    expect((await state())?.disabledAt).not.toBeNull();
    expect(await disabledMails()).toHaveLength(1);
    const [delivery] = await app.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint.id));
    expect(delivery?.status).toBe("failed");
    expect(receiver.hits("/down")).toHaveLength(hitsBefore);

    // Later sweeps find it disabled already: one mail.
    now = new Date(now.getTime() + DAY);
    await run();
    expect(await disabledMails()).toHaveLength(1);
    await sender.close();
  });
});
