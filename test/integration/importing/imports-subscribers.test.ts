import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IMPORTED_SUBSCRIBERS_PER_DAY, IMPORTED_SUBSCRIBERS_PER_IMPORT } from "#shared/constants.ts";
import type { App } from "../../../src/server/app.ts";
import { emailSubscriptions, mailOutbox, posts, users } from "../../../src/server/db/schema.ts";
import { DEFAULT_RATE_LIMITS } from "../../../src/server/plugins/rate-limits.ts";
import { buildTestApp, generousLimits } from "../../support/app.ts";
import { importArchive, zipOf } from "../../support/archives.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { type SmtpServer, startSmtpServer } from "../../support/smtp.ts";
import { makeAdmin, signUp } from "../../support/users.ts";

type State = { status: string; total: number; done: number; errors: { item: string; reason: string }[] };
type Session = Awaited<ReturnType<typeof signUp>>;

const DAY_MS = 24 * 60 * 60_000;

/** A Substack export: one published post and `emails` as its list. */
const substackZip = (emails: string[], tag = "one") =>
  zipOf({
    "posts.csv": `post_id,post_date,is_published,type,title,subtitle\n1.${tag},2021-01-01T00:00:00.000Z,true,newsletter,Hello ${tag},\n`,
    [`posts/1.${tag}.html`]: "<p>An old post.</p>",
    "email_list.some-blog.csv": `email,expiry,email_disabled,type\n${emails.map((email) => `${email},,false,free`).join("\n")}\n`,
  });

/** A Ghost export whose members are `emails`. */
const ghostJson = (emails: string[]) =>
  JSON.stringify({
    db: [
      {
        meta: { version: "5.0.0" },
        data: {
          posts: [
            {
              id: "p1",
              uuid: "u-1",
              title: "Hello from Ghost",
              slug: "hello-ghost",
              html: "<p>Hi</p>",
              status: "published",
              type: "post",
              published_at: "2024-01-01T00:00:00.000Z",
            },
          ],
          members: emails.map((email) => ({ id: email, email, status: "free" })),
        },
      },
    ],
  });

describe.each(databaseTargets)("An import's list of subscribers on $name", (target) => {
  let app: App;
  let smtp: SmtpServer;
  let category: string;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    // The per-address limit at its real value, as the form has it (the rest stay generous).
    app = await buildTestApp(await target.open(), {
      env: { SMTP_URL: smtp.url },
      rateLimits: { ...generousLimits, subscriptionAddress: DEFAULT_RATE_LIMITS.subscriptionAddress },
    });
    const admin = await signUp(app);
    await makeAdmin(app, admin.id);
    category = (await createCategory(app, admin)).title;
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  let counter = 0;
  const address = (name = "reader") => `${name}-${Date.now()}-${++counter}@example.org`;
  const mailsTo = (email: string) => smtp.received.filter((mail) => mail.to.includes(email));
  /** Past the new-account rules: verified, two days old. */
  const trust = (user: { id: string }) =>
    app.db
      .update(users)
      .set({ isAccountVerified: true, createdAt: new Date(Date.now() - 2 * DAY_MS) })
      .where(eq(users.id, user.id));
  async function settled() {
    await app.mailer.idle();
    for (let waited = 0; waited < 10_000; waited += 50) {
      if ((await app.mailer.counts()).queued === 0) return;
      app.mailer.drain();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the outbox did not drain");
  }
  async function importFile(session: Session, format: string, file: { data: Buffer | string; filename: string }) {
    return importArchive<State>(app, session, { format }, file);
  }
  const rowsOf = (authorId: string) =>
    app.db
      .select({ email: emailSubscriptions.email, status: emailSubscriptions.status })
      .from(emailSubscriptions)
      .where(eq(emailSubscriptions.authorId, authorId))
      .orderBy(emailSubscriptions.email);
  const reasons = (state: State) => state.errors.filter((error) => error.item === "Subscribers").map((e) => e.reason);

  it("takes no list from a new account: its posts come in, the addresses are neither added nor mailed", async () => {
    const fresh = await signUp(app);
    const unverified = await signUp(app);
    await app.db
      .update(users)
      .set({ createdAt: new Date(Date.now() - 2 * DAY_MS) })
      .where(eq(users.id, unverified.id));
    const young = await signUp(app);
    await app.db.update(users).set({ isAccountVerified: true }).where(eq(users.id, young.id));
    const limited = await signUp(app);
    await trust(limited);
    await app.db.update(users).set({ limitedAt: new Date() }).where(eq(users.id, limited.id));
    const strangers: string[] = [];
    for (const [index, writer] of [fresh, unverified, young, limited].entries()) {
      const list = [address("victim"), address("victim")];
      strangers.push(...list);
      const substack = await importFile(writer, "substack", {
        data: await substackZip(list, `s${index}`),
        filename: "substack.zip",
      });
      expect(substack).toMatchObject({ status: "done", total: 3, done: 3 });
      expect(reasons(substack)).toEqual([
        "2 not added: only admins and verified accounts older than a day bring a list of subscribers",
      ]);
      const ghostList = [address("victim")];
      strangers.push(...ghostList);
      const ghost = await importFile(writer, "ghost", { data: ghostJson(ghostList), filename: "ghost.json" });
      expect(ghost).toMatchObject({ status: "done", total: 2, done: 2 });
      expect(await rowsOf(writer.id)).toEqual([]);
      expect(await app.db.$count(posts, eq(posts.userId, writer.id))).toBe(2);
    }
    await settled();
    for (const stranger of strangers) expect(mailsTo(stranger)).toEqual([]);
    expect(await app.db.$count(mailOutbox, sql`${mailOutbox.to} like 'victim-%'`)).toBe(0);
  });

  it("leaves a trusted account's list waiting: one confirmation each, and no post until it is opened", async () => {
    const writer = await signUp(app, { firstName: "Nora", lastName: "Moved" });
    await trust(writer);
    const [fresh, confirmed, left, alsoFresh] = [address(), address(), address(), address()];
    // Already subscribed, and gone before: both stay as they are, and neither is mailed.
    await app.db.insert(emailSubscriptions).values([
      { authorId: writer.id, email: confirmed, status: "active", confirmedAt: new Date() },
      { authorId: writer.id, email: left, status: "unsubscribed", unsubscribedAt: new Date() },
    ]);
    const state = await importFile(writer, "substack", {
      data: await substackZip([fresh, confirmed, left, alsoFresh.toUpperCase(), fresh]),
      filename: "substack.zip",
    });
    expect(state).toMatchObject({ status: "done", total: 6, done: 6 });
    expect(reasons(state)).toEqual([
      "2 addresses were sent one confirmation each and wait for it: nothing else is mailed to them until they confirm",
      "3 already on the list (subscribed, waiting or unsubscribed) left as they were, and not mailed",
    ]);
    expect(await rowsOf(writer.id)).toEqual(
      [
        { email: fresh, status: "pending" },
        { email: confirmed, status: "active" },
        { email: left, status: "unsubscribed" },
        { email: alsoFresh, status: "pending" },
      ].sort((a, b) => a.email.localeCompare(b.email)),
    );
    await settled();
    expect(mailsTo(confirmed)).toEqual([]);
    expect(mailsTo(left)).toEqual([]);
    const [mail] = mailsTo(fresh);
    expect(mailsTo(fresh)).toHaveLength(1);
    expect(mailsTo(alsoFresh)).toHaveLength(1);
    const text = mail?.decoded.replace(/\r\n[ \t]+/g, " ") ?? "";
    expect(text).toContain("Subject: Nora Moved has moved from Substack: confirm to keep getting their posts");
    expect(text).toContain("Nora Moved used to send you their writing through Substack");
    const token = /\/subscriptions\/confirm\/([A-Za-z0-9_-]{43})/.exec(text)?.[1];
    expect(token).toBeDefined();

    // A post: the confirmed reader gets it, the waiting ones do not.
    await createPost(app, writer, category, { title: "First on Penchain" });
    await settled();
    expect(mailsTo(confirmed)).toHaveLength(1);
    expect(mailsTo(fresh)).toHaveLength(1);
    expect(mailsTo(alsoFresh)).toHaveLength(1);

    // Opened: the next post comes; the one who did nothing still gets nothing.
    expect((await app.inject({ method: "GET", url: `/api/subscriptions/confirm/${token}` })).statusCode).toBe(200);
    await createPost(app, writer, category, { title: "Second on Penchain" });
    await settled();
    expect(mailsTo(fresh)).toHaveLength(2);
    expect(mailsTo(alsoFresh)).toHaveLength(1);

    // The same list again mails nobody.
    const before = smtp.received.length;
    const again = await importFile(writer, "substack", {
      data: await substackZip([fresh, confirmed, left, alsoFresh]),
      filename: "substack.zip",
    });
    expect(reasons(again)).toEqual([
      "4 already on the list (subscribed, waiting or unsubscribed) left as they were, and not mailed",
    ]);
    await settled();
    expect(smtp.received.length).toBe(before);
  });

  it("reports a list's hostile lines as not addresses, and writes the report however they are spelled", async () => {
    const writer = await signUp(app);
    await trust(writer);
    const good = address();
    const hostile = [
      `${address()}\r\nBcc: hidden@evil.test`,
      `Evil <${address()}>`,
      `${address()}, ${address()}`,
      `nul\u0000${address()}`,
      `${"x".repeat(199)}\u{1F600}@example.org`,
      "ｆｕｌｌ＠example.org",
      "=cmd|calc@example.org",
    ];
    const state = await importFile(writer, "ghost", { data: ghostJson([good, ...hostile]), filename: "ghost.json" });
    expect(state).toMatchObject({ status: "done", total: 9, done: 9 });
    expect(state.errors.filter((error) => error.reason === "it is not an e-mail address")).toHaveLength(hostile.length);
    expect(state.errors.some((error) => /\p{Cc}/u.test(error.item))).toBe(false);
    expect((await rowsOf(writer.id)).map((row) => row.email)).toEqual([good]);
    await settled();
    expect(smtp.received.filter((mail) => mail.to.some((to) => to.includes("evil") || to.includes("calc")))).toEqual(
      [],
    );
  });

  it("counts a list against the form's per-address limit, one mailbox whatever its tags and case", async () => {
    const [one, two, writer] = [await signUp(app), await signUp(app), await signUp(app, { firstName: "Tagged" })];
    await trust(writer);
    const mailbox = `ann-${Date.now()}`;
    const form = (authorId: string, email: string) =>
      app.inject({ method: "POST", url: "/api/subscriptions", payload: { authorId, email } });
    expect((await form(one.id, `${mailbox}+1@example.org`)).statusCode).toBe(202);
    expect((await form(two.id, `${mailbox.toUpperCase()}+2+x@EXAMPLE.org`)).statusCode).toBe(202);
    const state = await importFile(writer, "ghost", {
      data: ghostJson([`${mailbox}+3@example.org`, `${mailbox}@example.org`, `${mailbox}+4@example.org`]),
      filename: "ghost.json",
    });
    expect(reasons(state)).toEqual([
      "1 address was sent one confirmation each and wait for it: nothing else is mailed to them until they confirm",
      "2 not added: they were asked to confirm a subscription too often lately",
    ]);
    expect((await rowsOf(writer.id)).map((row) => row.email)).toEqual([`${mailbox}+3@example.org`]);
    // The limit is full for the mailbox: the form is refused for it too, however it is spelled.
    expect((await form(two.id, `${mailbox}+5@example.org`)).statusCode).toBe(429);
    await settled();
    expect(smtp.received.filter((mail) => mail.to.some((to) => to.startsWith(mailbox)))).toHaveLength(3);
  });

  it("asks at most so many addresses of an author a day; importing the same file again goes on", async () => {
    const writer = await signUp(app);
    await trust(writer);
    // The day's cap, nearly used: by lists imported in the last day (the form's addresses do not count).
    const seeded = IMPORTED_SUBSCRIBERS_PER_DAY - 3;
    await app.db.execute(sql`
      insert into email_subscriptions (author_id, email, status, source, created_at)
      select ${writer.id}, 'seed-' || n || '@example.org', 'pending', 'substack', now() - interval '23 hours'
      from generate_series(1, ${seeded}) as n`);
    await app.db.insert(emailSubscriptions).values({ authorId: writer.id, email: address(), source: "form" });
    const list = Array.from({ length: 5 }, () => address("capped"));
    const state = await importFile(writer, "ghost", { data: ghostJson(list), filename: "ghost.json" });
    expect(reasons(state)).toEqual([
      "3 addresses were sent one confirmation each and wait for it: nothing else is mailed to them until they confirm",
      `2 not added: an import asks at most ${IMPORTED_SUBSCRIBERS_PER_IMPORT} addresses, and ${IMPORTED_SUBSCRIBERS_PER_DAY} a day; import the same file again tomorrow for the rest`,
    ]);
    const waiting = await app.db.$count(
      emailSubscriptions,
      and(eq(emailSubscriptions.authorId, writer.id), sql`${emailSubscriptions.email} like 'capped-%'`),
    );
    expect(waiting).toBe(3);
    // A day on, the rest of the same file comes in.
    await app.db.execute(
      sql`update email_subscriptions set created_at = now() - interval '25 hours' where author_id = ${writer.id}`,
    );
    const later = await importFile(writer, "ghost", { data: ghostJson(list), filename: "ghost.json" });
    expect(reasons(later)[0]).toMatch(/^2 addresses were sent one confirmation each/);
  });

  // A thousand addresses read, written and queued: slower than most tests.
  it("asks at most so many addresses an import, whoever brings it (an admin too)", { timeout: 180_000 }, async () => {
    const admin = await signUp(app);
    await makeAdmin(app, admin.id);
    const big = Array.from(
      { length: IMPORTED_SUBSCRIBERS_PER_IMPORT + 4 },
      (_, n) => `big-${Date.now()}-${n}@example.org`,
    );
    const bigState = await importFile(admin, "substack", { data: await substackZip(big, "big"), filename: "big.zip" });
    expect(reasons(bigState)).toEqual([
      `${IMPORTED_SUBSCRIBERS_PER_IMPORT} addresses were sent one confirmation each and wait for it: nothing else is mailed to them until they confirm`,
      `4 not added: an import asks at most ${IMPORTED_SUBSCRIBERS_PER_IMPORT} addresses, and ${IMPORTED_SUBSCRIBERS_PER_DAY} a day; import the same file again tomorrow for the rest`,
    ]);
    expect(await app.db.$count(emailSubscriptions, eq(emailSubscriptions.authorId, admin.id))).toBe(
      IMPORTED_SUBSCRIBERS_PER_IMPORT,
    );
    expect(await app.db.$count(mailOutbox, sql`${mailOutbox.to} like 'big-%'`)).toBe(IMPORTED_SUBSCRIBERS_PER_IMPORT);
  });
});
