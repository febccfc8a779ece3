import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { mailOutbox, webhookDeliveries, webhookEndpoints } from "../../../src/server/db/schema.ts";
import { sealSecret } from "../../../src/server/services/webhooks/secrets.ts";
import { buildTestApp, TEST_JWT_SECRET } from "../../support/app.ts";
import { commentOn, createCategory, createPost, postForm } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { makeToken } from "../../support/tokens.ts";
import { bearer, signUp } from "../../support/users.ts";
import { type Receiver, startReceiver } from "../../support/webhooks.ts";

type Session = Awaited<ReturnType<typeof signUp>>;

/** Wakes the sender until `check` holds (up to 5 s). */
async function until(app: App, check: () => boolean | Promise<boolean>) {
  for (let waited = 0; waited < 5000; waited += 50) {
    app.webhooks.wake();
    await app.webhooks.idle();
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the webhook never arrived");
}

/**
 * Issue 61's webhooks, end to end: an endpoint made through the API, a change in the app, and a receiver on loopback
 * that checks the signature with the `standardwebhooks` package.
 */
describe.each(databaseTargets)("webhooks on $name", (target) => {
  let app: App;
  let receiver: Receiver;
  let admin: Session;
  let author: Session;
  let reader: Session;
  let category: string;

  beforeAll(async () => {
    app = await buildTestApp(await target.open());
    receiver = await startReceiver();
    admin = await signUp(app, { firstName: "Grace", lastName: "Hopper" });
    author = await signUp(app, { firstName: "Ada", lastName: "Lovelace" });
    reader = await signUp(app, { firstName: "Charles", lastName: "Babbage" });
    category = (await createCategory(app, admin)).title;
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  const create = (who: Session, payload: object) =>
    app.inject({ method: "POST", url: "/api/webhooks", payload, headers: bearer(who) });
  async function endpoint(who: Session, path: string, events: string[]) {
    const response = await create(who, { url: receiver.url(path), events, description: "test" });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string; secret: string };
  }

  it("signs post.published so that standardwebhooks verifies it, with the post as the API shows it", async () => {
    const hook = await endpoint(author, "/signed", ["post.published"]);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const listed = await app.inject({ method: "GET", url: `/api/webhooks/${hook.id}`, headers: bearer(author) });
    expect(listed.json()).not.toHaveProperty("secret");
    const [stored] = await app.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, hook.id));
    expect(stored?.secret).not.toContain(hook.secret.slice(6));

    const post = await createPost(app, author, category, { title: "Notes on the Analytical Engine" });
    await until(app, () => receiver.hits("/signed").length === 1);
    const [hit] = receiver.hits("/signed");
    const verified = new Webhook(hook.secret).verify(hit?.body as string, hit?.headers as Record<string, string>) as {
      type: string;
      timestamp: string;
      data: { id: string; title: string };
    };
    expect(verified.type).toBe("post.published");
    expect(verified.data).toMatchObject({ id: post.id, title: "Notes on the Analytical Engine" });
    expect(hit?.headers["webhook-id"]).toMatch(/^msg_/);
    // Another secret does not verify it.
    expect(() =>
      new Webhook("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").verify(hit?.body as string, hit?.headers as never),
    ).toThrow();
  });

  it("retries under the same webhook-id, 5 s after a failure, and lists the attempts", async () => {
    const hook = await endpoint(author, "/flaky", ["post.published"]);
    receiver.answer("/flaky", 500);
    await createPost(app, author, category, { title: "Sketch of the engine" });
    await until(app, () => receiver.hits("/flaky").length === 1);
    const [pending] = await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hook.id));
    expect(pending).toMatchObject({ status: "pending", attempts: 1, lastStatus: 500 });
    const wait = (pending?.nextAttemptAt.getTime() ?? 0) - Date.now();
    expect(wait).toBeGreaterThan(3000);
    expect(wait).toBeLessThanOrEqual(5000);
    // Its time comes.
    await app.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date() })
      .where(eq(webhookDeliveries.endpointId, hook.id));
    await until(app, () => receiver.hits("/flaky").length === 2);
    const [first, second] = receiver.hits("/flaky");
    expect(second?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
    expect(second?.body).toBe(first?.body);
    const deliveries = await app.inject({
      method: "GET",
      url: `/api/webhooks/${hook.id}/deliveries`,
      headers: bearer(author),
    });
    expect(deliveries.json().items).toEqual([
      expect.objectContaining({
        id: first?.headers["webhook-id"],
        event: "post.published",
        status: "delivered",
        attempts: 2,
        answerCode: 200,
      }),
    ]);

    // Redelivered by hand: the same id once more.
    const again = await app.inject({
      method: "POST",
      url: `/api/webhooks/${hook.id}/deliveries/${first?.headers["webhook-id"]}/redeliver`,
      headers: bearer(author),
    });
    expect(again.statusCode).toBe(202);
    await until(app, () => receiver.hits("/flaky").length === 3);
    expect(receiver.hits("/flaky")[2]?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
  });

  it("disables an endpoint that answers 410 and mails its owner", async () => {
    const hook = await endpoint(author, "/gone", ["post.published"]);
    receiver.answer("/gone", 410);
    await createPost(app, author, category, { title: "Gone" });
    await until(app, () => receiver.hits("/gone").length === 1);
    const shown = await app.inject({ method: "GET", url: `/api/webhooks/${hook.id}`, headers: bearer(author) });
    expect(shown.json()).toMatchObject({ disabledReason: expect.stringContaining("410") });
    expect(shown.json().disabledAt).not.toBeNull();
    const mails = await app.db.select().from(mailOutbox).where(eq(mailOutbox.to, author.email));
    expect(mails.some((mail) => mail.subject === "A webhook of yours was disabled")).toBe(true);
    // Nothing more goes to it until its owner resumes it.
    await createPost(app, author, category, { title: "Gone again" });
    await app.webhooks.idle();
    expect(receiver.hits("/gone")).toHaveLength(1);
    const resumed = await app.inject({
      method: "PATCH",
      url: `/api/webhooks/${hook.id}`,
      payload: { paused: false },
      headers: bearer(author),
    });
    expect(resumed.json()).toMatchObject({ disabledAt: null, paused: false });
  });

  it("sends the test event, and nothing while paused", async () => {
    const hook = await endpoint(author, "/paused", ["post.published"]);
    const tested = await app.inject({ method: "POST", url: `/api/webhooks/${hook.id}/test`, headers: bearer(author) });
    expect(tested.statusCode).toBe(202);
    await until(app, () => receiver.hits("/paused").length === 1);
    expect(JSON.parse(receiver.hits("/paused")[0]?.body as string).type).toBe("webhook.test");
    await app.inject({
      method: "PATCH",
      url: `/api/webhooks/${hook.id}`,
      payload: { paused: true },
      headers: bearer(author),
    });
    await createPost(app, author, category, { title: "Unheard" });
    app.webhooks.wake();
    await app.webhooks.idle();
    expect(receiver.hits("/paused")).toHaveLength(1);
  });

  it("lets an author follow their own events and an admin the site's; another's endpoint is not found", async () => {
    const refused = await create(author, { url: receiver.url("/x"), events: ["user.registered"] });
    expect(refused.statusCode).toBe(403);
    const mine = await endpoint(reader, "/reader", ["post.published", "follower.created"]);
    const site = await endpoint(admin, "/site", ["post.published", "user.registered"]);
    const post = await createPost(app, author, category, { title: "For the site" });
    const newcomer = await signUp(app, { firstName: "Mary", lastName: "Somerville" });
    await app.inject({
      method: "PUT",
      url: "/api/users/follow",
      payload: { followId: reader.id },
      headers: bearer(author),
    });
    await until(app, () => receiver.hits("/site").length === 2 && receiver.hits("/reader").length === 1);
    const types = receiver.hits("/site").map((hit) => JSON.parse(hit.body));
    expect(types).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "post.published", data: expect.objectContaining({ id: post.id }) }),
        expect.objectContaining({ type: "user.registered", data: expect.objectContaining({ id: newcomer.id }) }),
      ]),
    );
    // The reader hears of their new follower, and of no one else's post.
    expect(receiver.hits("/reader").map((hit) => JSON.parse(hit.body))).toEqual([
      expect.objectContaining({
        type: "follower.created",
        data: { follower: expect.objectContaining({ id: author.id }), followeeId: reader.id },
      }),
    ]);
    for (const [method, url] of [
      ["GET", `/api/webhooks/${mine.id}`],
      ["PATCH", `/api/webhooks/${mine.id}`],
      ["DELETE", `/api/webhooks/${mine.id}`],
      ["GET", `/api/webhooks/${mine.id}/deliveries`],
      ["POST", `/api/webhooks/${mine.id}/test`],
    ] as const) {
      const response = await app.inject({
        method,
        url,
        payload: method === "PATCH" ? {} : undefined,
        headers: bearer(author),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    const list = await app.inject({ method: "GET", url: "/api/webhooks", headers: bearer(author) });
    expect(list.json().items.map((item: { id: string }) => item.id)).not.toContain(mine.id);
    expect(list.json().items.map((item: { id: string }) => item.id)).not.toContain(site.id);
  });

  it("never carries what the receiver could not read: drafts, held comments, a post taken back", async () => {
    await endpoint(author, "/private", ["post.published", "post.unpublished", "comment.created", "comment.deleted"]);
    await createPost(app, author, category, { title: "A draft", status: "draft" });
    const post = await createPost(app, author, category, { title: "Public for a while" });
    await until(app, () => receiver.hits("/private").length === 1);
    // A first-time commenter's comment waits for the author: no event; a known commenter's is one.
    await app.inject({
      method: "PUT",
      url: "/api/comments/settings",
      payload: { holdFirstComments: true },
      headers: bearer(author),
    });
    await commentOn(app, reader, post.id, "Held until approved");
    const own = await commentOn(app, author, post.id, "The author's own");
    await until(app, () => receiver.hits("/private").length === 2);
    const taken = await app.inject({
      method: "PUT",
      url: `/api/posts/${post.id}`,
      payload: { title: "Public for a while", description: "<p>Secret draft text</p>", category, status: "draft" },
      headers: bearer(author),
    });
    expect(taken.statusCode, taken.body).toBe(200);
    await until(app, () => receiver.hits("/private").length === 3);
    const bodies = receiver.hits("/private").map((hit) => JSON.parse(hit.body));
    expect(bodies.map((body) => body.type)).toEqual(["post.published", "comment.created", "post.unpublished"]);
    expect(bodies[1].data).toMatchObject({ id: own.id, description: "The author's own" });
    expect(bodies[2].data).toEqual({ id: post.id, authorId: author.id });
    const all = receiver
      .hits("/private")
      .map((hit) => hit.body)
      .join("");
    expect(all).not.toContain("A draft");
    expect(all).not.toContain("Held until approved");
    expect(all).not.toContain("Secret draft text");
  });

  it("refuses private and plain-http targets where the site is public, and its sender never reaches them", async () => {
    const database = await target.open();
    const publicSite = await buildTestApp(database, { env: { PUBLIC_URL: "https://blog.penchain.org" } });
    try {
      const owner = await signUp(publicSite, { firstName: "Hedy", lastName: "Lamarr" });
      for (const url of [
        receiver.url("/private-target"),
        "https://127.0.0.1/hook",
        "https://[::1]/hook",
        "https://10.0.0.8/hook",
        "https://169.254.169.254/latest/meta-data",
        "https://localhost/hook",
        "https://user:pass@example.com/hook",
        "ftp://example.com/hook",
        "javascript:alert(1)",
      ]) {
        const response = await publicSite.inject({
          method: "POST",
          url: "/api/webhooks",
          payload: { url, events: ["post.published"] },
          headers: bearer(owner),
        });
        expect(response.statusCode, url).toBe(400);
      }
      // One written past the API (an address that resolved elsewhere when saved) fails at its delivery instead.
      const [row] = await publicSite.db
        .insert(webhookEndpoints)
        .values({
          userId: owner.id,
          url: `https://127.0.0.1:${new URL(receiver.url("/")).port}/private-target`,
          events: ["post.published"],
          secret: sealSecret(TEST_JWT_SECRET, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"),
        })
        .returning();
      await publicSite.db.execute(sql`
        with event as (insert into webhook_events (type, owner_id, data) values ('post.published', ${owner.id}, '{}') returning id)
        insert into webhook_deliveries (event_id, endpoint_id) select event.id, ${row?.id}::uuid from event`);
      publicSite.webhooks.wake();
      await publicSite.webhooks.idle();
      expect(receiver.hits("/private-target")).toHaveLength(0);
      const [failed] = await publicSite.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, row?.id as string));
      expect(failed).toMatchObject({ attempts: 1, lastStatus: null, lastError: expect.stringMatching(/address/) });
    } finally {
      await publicSite.close();
    }
  });

  it("refuses nasty input", async () => {
    for (const payload of [
      { url: receiver.url("/n"), events: [] },
      { url: receiver.url("/n"), events: ["post.exploded"] },
      { url: `${receiver.url("/n")}${"a".repeat(3000)}`, events: ["post.published"] },
      { url: receiver.url("/n"), events: ["post.published"], description: "x".repeat(600) },
    ]) {
      const response = await create(author, payload);
      expect(response.statusCode).toBe(400);
    }
    const badDelivery = await app.inject({
      method: "POST",
      url: `/api/webhooks/${crypto.randomUUID()}/deliveries/msg_'%20or%201=1/redeliver`,
      headers: bearer(author),
    });
    expect(badDelivery.statusCode).toBe(400);
  });

  it("lets a script with a token publish, and its receiver verify post.published (issue 61's whole loop)", async () => {
    const script = await makeToken(app, author, ["posts:write", "webhooks:write"]);
    const hooked = await app.inject({
      method: "POST",
      url: "/api/webhooks",
      payload: { url: receiver.url("/script"), events: ["post.published"] },
      headers: script.headers,
    });
    expect(hooked.statusCode, hooked.body).toBe(201);
    const form = postForm({
      title: "Published by a script",
      description: "<p>Body</p>",
      category,
      isFeatured: "false",
    });
    const published = await app.inject({
      method: "POST",
      url: "/api/posts",
      payload: form.payload,
      headers: { ...form.headers, ...script.headers },
    });
    expect(published.statusCode, published.body).toBe(201);
    await until(app, () => receiver.hits("/script").length === 1);
    const [hit] = receiver.hits("/script");
    const event = new Webhook(hooked.json().secret).verify(hit?.body as string, hit?.headers as never) as {
      type: string;
      data: { id: string; title: string };
    };
    expect(event).toMatchObject({ type: "post.published", data: { id: published.json().id } });
    // Without the scope the same script is refused.
    const reader = await makeToken(app, author, ["posts:read"]);
    const refused = await app.inject({
      method: "POST",
      url: "/api/posts",
      payload: form.payload,
      headers: { ...form.headers, ...reader.headers },
    });
    expect(refused.statusCode).toBe(403);
  });
});
