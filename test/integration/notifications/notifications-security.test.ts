import http from "node:http";
import type net from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { notifications, users } from "../../../src/server/db/schema.ts";
import { DEFAULT_RATE_LIMITS } from "../../../src/server/plugins/rate-limits.ts";
import { sendDigests } from "../../../src/server/services/notifications/digest.ts";
import { unsubscribeToken } from "../../../src/server/services/notifications/unsubscribe.ts";
import { buildTestApp, generousLimits, TEST_JWT_SECRET } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { type SmtpServer, startSmtpServer } from "../../support/smtp.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

/** Opens the live unread-count stream as a browser would, and tells when the server ends it. */
async function openStream(port: number, token: string) {
  return new Promise<{ ended: Promise<void>; close: () => void }>((resolve, reject) => {
    const request = http.get(
      { host: "127.0.0.1", port, path: "/api/notifications/stream", headers: { authorization: `Bearer ${token}` } },
      (response) => {
        if (response.statusCode !== 200) reject(new Error(`stream answered ${response.statusCode}`));
        response.resume();
        const ended = new Promise<void>((done) => response.on("end", done).on("close", done));
        response.once("data", () => resolve({ ended, close: () => request.destroy() }));
      },
    );
    request.on("error", reject);
  });
}

/**
 * Issue 35's notifications: nothing shows a title a post has only as a draft, nothing of a blocked user stays, a
 * stream ends with its session, an unsubscribe link cannot switch on what it never switched off, and the writes
 * are rate-limited.
 */
describe.each(databaseTargets)("notifications kept to what was public on $name", (target) => {
  let app: App;
  let smtp: SmtpServer;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let category: string;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await buildTestApp(await target.open(), {
      env: { SMTP_URL: smtp.url },
      rateLimits: { ...generousLimits, notificationWrites: DEFAULT_RATE_LIMITS.notificationWrites },
    });
    await app.listen({ host: "127.0.0.1", port: 0 });
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
    category = (await createCategory(app, admin)).title;
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  const call = (method: "GET" | "PUT" | "POST", url: string, session?: { token: string }, payload?: object) =>
    app.inject({ method, url, payload, headers: session ? bearer(session) : {} });
  const list = async (session: { token: string }) => (await call("GET", "/api/notifications", session)).json().items;
  const unread = async (session: { token: string }) =>
    (await call("GET", "/api/notifications/unread-count", session)).json().count as number;
  const verify = (id: string) => app.db.update(users).set({ isAccountVerified: true }).where(eq(users.id, id));

  it("shows no title of a post taken back to a draft, in the list, the count or the digest", async () => {
    const [author, reader] = [await signUp(app), await signUp(app)];
    await verify(reader.id);
    await call("PUT", "/api/users/follow", reader, { followId: author.id });
    await call("PUT", "/api/notifications/settings", reader, { settings: [{ topic: "new_post", delivery: "digest" }] });
    const post = await createPost(app, author, category, { title: "Out in the open" });
    expect(await list(reader)).toMatchObject([{ kind: "new_post", post: { title: "Out in the open" } }]);
    await call("PUT", `/api/posts/${post.id}`, author, {
      title: "Secret plans",
      description: "<p>Not yet</p>",
      category,
      status: "draft",
    });
    expect(JSON.stringify(await list(reader))).not.toContain("Secret plans");
    expect(await list(reader)).toEqual([]);
    expect(await unread(reader)).toBe(0);
    const yesterday = new Date(Date.now() - 24 * 3600_000);
    await app.db.update(notifications).set({ updatedAt: yesterday }).where(eq(notifications.userId, reader.id));
    await sendDigests(app.deps);
    app.mailer.drain();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.received.filter((mail) => mail.decoded.includes("Secret plans"))).toEqual([]);
    // Published again, it is public once more, under the title it has now.
    await call("PUT", `/api/posts/${post.id}`, author, {
      title: "Secret plans",
      description: "<p>Now</p>",
      category,
      status: "published",
    });
    expect(await list(reader)).toMatchObject([{ kind: "new_post", post: { title: "Secret plans" } }]);
  });

  it("hides a blocked user's notifications, and shows them again when unblocked", async () => {
    const [author, troll] = [await signUp(app), await signUp(app)];
    await call("PUT", "/api/users/follow", troll, { followId: author.id });
    expect(await list(author)).toMatchObject([{ kind: "follow", actor: { id: troll.id } }]);
    await call("PUT", `/api/users/block-user/${troll.id}`, admin);
    expect(await list(author)).toEqual([]);
    expect(await unread(author)).toBe(0);
    await call("PUT", `/api/users/unblock-user/${troll.id}`, admin);
    expect(await list(author)).toHaveLength(1);
  });

  it("ends a live stream when its session logs out, or when the password changes", async () => {
    const port = (app.server.address() as net.AddressInfo).port;
    const reader = await signUp(app);
    const other = await signUp(app);
    const stream = await openStream(port, reader.token);
    const bystander = await openStream(port, other.token);
    expect((await call("POST", "/api/users/logout", reader)).statusCode).toBe(200);
    await stream.ended;
    // Another user's stream stays open.
    expect(app.notificationHub.size()).toBe(1);
    bystander.close();

    const again = await signUp(app);
    const live = await openStream(port, again.token);
    const changed = await call("PUT", "/api/users/password", again, {
      currentPassword: again.password,
      password: "a-whole-new-passphrase-2026",
    });
    expect(changed.statusCode).toBe(200);
    await live.ended;
    await vi.waitUntil(() => app.notificationHub.size() === 0, { timeout: 5_000 });
  });

  it("undoes a digest's unsubscribe only for the topics it turned off", async () => {
    const reader = await signUp(app);
    await call("PUT", "/api/notifications/settings", reader, { settings: [{ topic: "comment", delivery: "digest" }] });
    const link = { userId: reader.id, topic: "digest", token: unsubscribeToken(TEST_JWT_SECRET, reader.id, "digest") };
    const done = (await call("POST", "/api/notifications/unsubscribe", undefined, link)).json();
    expect(done).toMatchObject({ topics: ["comment"], delivery: "app", undo: expect.any(String) });
    const everything = await call("POST", "/api/notifications/resubscribe", undefined, {
      ...link,
      topics: ["comment", "follow", "like", "new_post"],
      undo: done.undo,
    });
    expect(everything.statusCode).toBe(403);
    expect(
      (await call("POST", "/api/notifications/resubscribe", undefined, { ...link, topics: ["follow"] })).statusCode,
    ).toBe(403);
    const undone = await call("POST", "/api/notifications/resubscribe", undefined, {
      ...link,
      topics: done.topics,
      undo: done.undo,
    });
    expect(undone.json()).toMatchObject({ topics: ["comment"], delivery: "digest" });
    const settings = (await call("GET", "/api/notifications/settings", reader)).json().settings;
    expect(settings.filter((setting: { delivery: string }) => setting.delivery === "digest")).toEqual([
      { topic: "comment", delivery: "digest" },
    ]);
  });

  it("limits how often a user marks notifications read or changes their settings", async () => {
    const reader = await signUp(app);
    const { max } = DEFAULT_RATE_LIMITS.notificationWrites;
    const answers = [];
    for (let i = 0; i <= max; i++) answers.push((await call("PUT", "/api/notifications/read", reader, {})).statusCode);
    expect(answers.slice(0, max).every((status) => status === 200)).toBe(true);
    expect(answers.at(-1)).toBe(429);
  });
});
