import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INVALID_CONFIRMATION, SUBSCRIBE_SENT } from "#shared/schemas/subscriptions.ts";
import type { App } from "../../../src/server/app.ts";
import { emailSubscriptions, users } from "../../../src/server/db/schema.ts";
import { DEFAULT_RATE_LIMITS } from "../../../src/server/plugins/rate-limits.ts";
import { fanOutNewPost } from "../../../src/server/services/notifications/fan-out.ts";
import { subscriptionToken } from "../../../src/server/services/subscribers/subscriptions.ts";
import { buildTestApp, generousLimits, TEST_JWT_SECRET as JWT_SECRET } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { type SmtpServer, startSmtpServer } from "../../support/smtp.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

describe.each(databaseTargets)("e-mail subscribers without an account on $name", (target) => {
  let app: App;
  let smtp: SmtpServer;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let category: string;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await buildTestApp(await target.open(), { env: { SMTP_URL: smtp.url } });
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
    category = (await createCategory(app, admin)).title;
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  let counter = 0;
  const address = () => `reader-${Date.now()}-${++counter}@example.org`;
  const call = (method: "GET" | "POST" | "PUT", url: string, payload?: object, session?: { token: string }) =>
    app.inject({ method, url, payload, headers: session ? bearer(session) : {} });
  const subscribe = (authorId: string, email: string) => call("POST", "/api/subscriptions", { authorId, email });
  const mailsTo = (email: string) => smtp.received.filter((mail) => mail.to.includes(email));
  const unfolded = (mail: { decoded: string } | undefined) => mail?.decoded.replace(/\r\n[ \t]+/g, " ") ?? "";
  async function settled() {
    await app.mailer.idle();
    for (let waited = 0; waited < 5000; waited += 50) {
      if ((await app.mailer.counts()).queued === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the outbox did not drain");
  }
  /** The confirmation link's token, from the real mail. */
  async function confirmToken(email: string) {
    const mail = await smtp.mailTo(email);
    const token = /\/subscriptions\/confirm\/([A-Za-z0-9_-]{43})/.exec(mail.decoded)?.[1];
    if (!token) throw new Error(`no confirmation link in ${mail.decoded}`);
    return token;
  }
  const oneClick = (path: string) =>
    app.inject({
      method: "POST",
      url: path,
      payload: "List-Unsubscribe=One-Click",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });

  it("mails nothing but the confirmation until it is opened, then every new post with a one-click unsubscribe", async () => {
    const author = await signUp(app, { firstName: "Mira", lastName: "Quill" });
    const email = address();
    const answer = await subscribe(author.id, email.toUpperCase());
    expect(answer.statusCode).toBe(202);
    expect(answer.json()).toEqual({ message: SUBSCRIBE_SENT });
    const confirmation = await smtp.mailTo(email);
    expect(unfolded(confirmation)).toContain("Subject: Confirm your subscription to Mira Quill");
    const token = await confirmToken(email);

    // Not confirmed yet: a new post goes to nobody here.
    await createPost(app, author, category, { title: "Before confirming" });
    await settled();
    expect(mailsTo(email)).toHaveLength(1);

    const confirmed = await call("GET", `/api/subscriptions/confirm/${token}`);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ authorId: author.id, authorName: "Mira Quill", email });
    // Opened twice (a second click, a mail scanner after the reader): it says so again, counted once.
    expect((await call("GET", `/api/subscriptions/confirm/${token}`)).json()).toMatchObject({ email });

    const post = await createPost(app, author, category, { title: "For my <subscribers>" });
    await settled();
    const [, mail, ...more] = mailsTo(email);
    expect(more).toEqual([]);
    expect(unfolded(mail)).toContain("Subject: Mira Quill: For my <subscribers>");
    expect(mail?.decoded).toContain(`http://penchain.test/posts/${post.id}`);
    expect(mail?.decoded).toContain("you subscribed to Mira Quill's posts by e-mail");
    const [row] = await app.db.select().from(emailSubscriptions).where(eq(emailSubscriptions.email, email));
    const link = `http://penchain.test/subscriptions/unsubscribe/${row?.id}/${subscriptionToken(JWT_SECRET, row?.id as string)}`;
    expect(unfolded(mail)).toContain(`List-Unsubscribe: <${link}>, <mailto:`);
    expect(unfolded(mail)).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(mail?.decoded).toContain(`href="${link}"`);

    // Published again (a retried job, a second instance): not mailed twice.
    await app.db.transaction((tx) => fanOutNewPost({ ...app.deps, db: tx }, post.id));
    await settled();
    expect(mailsTo(email)).toHaveLength(2);

    const left = await oneClick(new URL(link).pathname);
    expect(left.statusCode).toBe(200);
    expect(left.body).toBe("Unsubscribed from Mira Quill's posts.");
    await createPost(app, author, category, { title: "After leaving" });
    await settled();
    expect(mailsTo(email)).toHaveLength(2);

    // The page's "Subscribe again", with the same link: no new confirmation needed.
    const back = await call("POST", "/api/subscriptions/resubscribe", { id: row?.id, token: link.split("/").pop() });
    expect(back.json()).toEqual({ authorName: "Mira Quill", email, status: "active" });
    await createPost(app, author, category, { title: "Welcome back" });
    await settled();
    expect(mailsTo(email)).toHaveLength(3);

    // The author's stats count the confirmation and the return as gains, the unsubscribe as a loss.
    const stats = (await call("GET", "/api/stats/author", undefined, author)).json() as {
      totals: { key: string; value: string }[];
    };
    const total = (key: string) => stats.totals.find((metric) => metric.key === key)?.value;
    expect([total("subscribersGained"), total("subscribersLost")]).toEqual(["2", "1"]);
  });

  it("answers the same for every address, mails a subscribed one nothing and a waiting one a new link at most every 10 minutes", async () => {
    const author = await signUp(app);
    const email = address();
    await subscribe(author.id, email);
    const first = await confirmToken(email);
    expect((await subscribe(author.id, email)).json()).toEqual({ message: SUBSCRIBE_SENT });
    await settled();
    expect(mailsTo(email)).toHaveLength(1);
    // Ten minutes later a new link replaces the old one.
    await app.db
      .update(emailSubscriptions)
      .set({ confirmSentAt: sql`now() - interval '11 minutes'` })
      .where(eq(emailSubscriptions.email, email));
    await subscribe(author.id, email);
    await settled();
    expect(mailsTo(email)).toHaveLength(2);
    expect((await call("GET", `/api/subscriptions/confirm/${first}`)).json()).toMatchObject({
      message: INVALID_CONFIRMATION,
    });
    const second = /\/subscriptions\/confirm\/([A-Za-z0-9_-]{43})/.exec(mailsTo(email)[1]?.decoded ?? "")?.[1];
    expect((await call("GET", `/api/subscriptions/confirm/${second}`)).statusCode).toBe(200);
    // Subscribed: the same answer, and no mail at all.
    expect((await subscribe(author.id, email)).json()).toEqual({ message: SUBSCRIBE_SENT });
    await settled();
    expect(mailsTo(email)).toHaveLength(2);
  });

  it("refuses unknown, expired and forged links, unknown or blocked authors, and addresses that are not one address", async () => {
    const author = await signUp(app);
    const email = address();
    await subscribe(author.id, email);
    const token = await confirmToken(email);
    await app.db
      .update(emailSubscriptions)
      .set({ confirmSentAt: sql`now() - interval '8 days'` })
      .where(eq(emailSubscriptions.email, email));
    const expired = await call("GET", `/api/subscriptions/confirm/${token}`);
    expect([expired.statusCode, expired.json().message]).toEqual([404, INVALID_CONFIRMATION]);
    expect((await call("GET", `/api/subscriptions/confirm/${"x".repeat(43)}`)).statusCode).toBe(404);

    for (const hostile of [
      `${address()}\r\nBcc: victim@example.net`,
      `victim@example.net, ${address()}`,
      `"Someone" <${address()}>`,
      "no-at-sign",
      `${"a".repeat(250)}@example.org`,
    ]) {
      const refused = await subscribe(author.id, hostile);
      expect(refused.statusCode, hostile).toBe(400);
    }
    expect((await subscribe("00000000-0000-4000-8000-000000000000", address())).statusCode).toBe(404);
    const blocked = await signUp(app);
    await call("PUT", `/api/users/block-user/${blocked.id}`, undefined, admin);
    expect((await subscribe(blocked.id, address())).statusCode).toBe(404);

    const [row] = await app.db.select().from(emailSubscriptions).where(eq(emailSubscriptions.email, email));
    const id = row?.id as string;
    const other = await signUp(app);
    expect((await oneClick(`/subscriptions/unsubscribe/${id}/${"0".repeat(32)}`)).statusCode).toBe(403);
    // Another subscription's token, or a follower's unsubscribe token for the same id, is no key to this one.
    const borrowed = subscriptionToken(JWT_SECRET, other.id);
    expect((await oneClick(`/subscriptions/unsubscribe/${id}/${borrowed}`)).statusCode).toBe(403);
    expect((await oneClick(`/subscriptions/unsubscribe/${id}/not-a-token`)).statusCode).toBe(400);
    expect((await call("POST", "/api/subscriptions/unsubscribe", { id, token: "0".repeat(32) })).statusCode).toBe(403);
  });

  it("limits confirmation mails to one address, whoever sends the form", async () => {
    // Its own app, with the per-address limit's real value (the rest stay generous).
    const limited = await buildTestApp(await target.open(), {
      env: { SMTP_URL: smtp.url },
      rateLimits: { ...generousLimits, subscriptionAddress: DEFAULT_RATE_LIMITS.subscriptionAddress },
    });
    try {
      const email = address();
      const [name, domain] = email.split("@");
      // One mailbox, however its tags and case are spelled.
      const spellings = [email, `${name}+1@${domain}`, `${name?.toUpperCase()}+2+x@${domain}`, `${name}+3@${domain}`];
      const authors = await Promise.all(spellings.map(() => signUp(limited)));
      const statuses = [];
      for (const [index, author] of authors.entries())
        statuses.push(
          (
            await limited.inject({
              method: "POST",
              url: "/api/subscriptions",
              payload: { authorId: author.id, email: spellings[index] },
            })
          ).statusCode,
        );
      expect(statuses).toEqual([202, 202, 202, 429]);
      await limited.mailer.idle();
      expect(smtp.received.filter((mail) => mail.to.some((to) => /^[^+@]+/.exec(to)?.[0] === name))).toHaveLength(3);
    } finally {
      await limited.close();
    }
  });

  it("keeps a subscription when its reader registers, and mails a reader who also follows once a post", async () => {
    const author = await signUp(app, { firstName: "Kept" });
    const email = address();
    await subscribe(author.id, email);
    await call("GET", `/api/subscriptions/confirm/${await confirmToken(email)}`);
    const reader = await signUp(app, { email });
    await createPost(app, author, category, { title: "Registered, not following" });
    await settled();
    expect(mailsTo(email)).toHaveLength(2);

    await app.db.update(users).set({ isAccountVerified: true }).where(eq(users.id, reader.id));
    await app.inject({
      method: "PUT",
      url: "/api/users/follow",
      payload: { followId: author.id },
      headers: bearer(reader),
    });
    await createPost(app, author, category, { title: "Following too" });
    await settled();
    const mails = mailsTo(email);
    expect(mails).toHaveLength(3);
    // The follower's mail, whose unsubscribe link is the account's switch.
    expect(mails[2]?.decoded).toContain("you follow Kept");
  });

  it("shows an author, and only them or an admin, how many subscribed and who, as CSV", async () => {
    const [author, stranger] = [await signUp(app), await signUp(app)];
    const [confirmed, waiting] = [address(), address()];
    await subscribe(author.id, confirmed);
    await subscribe(author.id, waiting);
    await call("GET", `/api/subscriptions/confirm/${await confirmToken(confirmed)}`);
    // A row written by an import, whose address a spreadsheet would read as a formula.
    await app.db
      .insert(emailSubscriptions)
      .values({ authorId: author.id, email: "=cmd@example.org", status: "active", source: "import" });

    expect((await call("GET", `/api/users/subscribers/${author.id}`, undefined, author)).json()).toEqual({
      active: 2,
      pending: 1,
    });
    const csv = await call("GET", `/api/users/subscribers/${author.id}.csv`, undefined, admin);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toBe('attachment; filename="subscribers.csv"');
    const lines = csv.body.trim().split("\r\n");
    expect(lines[0]).toBe("email,subscribed_at,source");
    expect(lines).toHaveLength(3);
    expect(lines).toContain("'=cmd@example.org,,import");
    expect(lines.find((line) => line.startsWith(`${confirmed},`))).toMatch(/,\d{4}-\d\d-\d\dT[\d:.]+Z,form$/);
    expect((await call("GET", `/api/users/subscribers/${author.id}`, undefined, stranger)).statusCode).toBe(403);
    expect((await call("GET", `/api/users/subscribers/${author.id}.csv`, undefined, stranger)).statusCode).toBe(403);
    expect((await call("GET", `/api/users/subscribers/${author.id}.csv`)).statusCode).toBe(401);
  });
});
