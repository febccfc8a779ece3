import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratchPostgres } from "../../../scripts/lib/scratch-postgres.ts";
import type { App } from "../../../src/server/app.ts";
import { openDatabase } from "../../../src/server/db/client.ts";
import { mailOutbox } from "../../../src/server/db/schema.ts";
import { buildTestApp, generousLimits } from "../../support/app.ts";
import { databaseTargets, pgliteTarget } from "../../support/databases.ts";
import { type SmtpServer, startSmtpServer } from "../../support/smtp.ts";
import { bearer, signUp } from "../../support/users.ts";

describe.each(databaseTargets)("messages between users on $name", (target) => {
  let app: App;
  let smtp: SmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await buildTestApp(await target.open(), {
      env: { SMTP_URL: smtp.url, MAIL_FROM: "Penchain <mail@penchain.test>" },
    });
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  const send = (session: { token: string }, payload: object) =>
    app.inject({ method: "POST", url: "/api/email", payload, headers: bearer(session) });

  it("sends from the site with the sender as reply-to", async () => {
    const [sender, recipient] = [await signUp(app, { firstName: "Sam" }), await signUp(app)];
    const response = await send(sender, {
      to: recipient.email.toUpperCase(),
      subject: "Hello there",
      message: "Line one\n<b>not bold</b>",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: "Email sent" });
    const mail = await smtp.mailTo(recipient.email);
    expect(mail.from).toBe("mail@penchain.test");
    expect(mail.decoded).toMatch(new RegExp(`^Reply-To: ${sender.email}`, "m"));
    expect(mail.decoded).toContain("Subject: Hello there");
    expect(mail.decoded).toContain("&lt;b&gt;not bold&lt;/b&gt;");
  });

  it("needs a signed-in sender", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/api/email",
      payload: { to: "a@b.co", subject: "s", message: "m" },
    });
    expect(response.statusCode).toBe(401);
  });

  it("only mails registered users, answering the same for others so the form cannot tell who is registered", async () => {
    const sender = await signUp(app);
    const recipient = await signUp(app);
    const known = await send(sender, { to: recipient.email, subject: "Hi", message: "Hi" });
    const unknown = await send(sender, { to: "stranger@example.com", subject: "Hi", message: "Hi" });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    const queued = await app.db.select().from(mailOutbox).where(eq(mailOutbox.to, "stranger@example.com"));
    expect(queued).toEqual([]);
  });

  it.each([
    [{ subject: "s", message: "m" }, "Recipent Email is required"],
    [{ to: "x@example.com", message: "m" }, "Subject is required"],
    [{ to: "x@example.com", subject: "s" }, "Message is required"],
    [
      { to: "x@example.com", subject: "Hi\r\nBcc: everyone@example.com", message: "m" },
      "Subject must be a single line",
    ],
  ])("refuses %j with '%s'", async (payload, message) => {
    const sender = await signUp(app);
    const response = await send(sender, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });
});

describe("mail when the mail server is down", () => {
  it("keeps the message queued, says so, and delivers it once the server is back", async () => {
    const smtp = await startSmtpServer();
    const port = smtp.port;
    await smtp.close();
    const app = await buildTestApp(await pgliteTarget.open(), { env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
    const [sender, recipient] = [await signUp(app), await signUp(app)];
    const response = await app.inject({
      method: "POST",
      url: "/api/email",
      payload: { to: recipient.email, subject: "Later", message: "Still here" },
      headers: bearer(sender),
    });
    expect(response.statusCode).toBe(202);
    expect(response.json().message).toMatch(/queued/);

    const revived = await startSmtpServer(port);
    await app.mailer.retryDue(new Date(Date.now() + 60 * 60 * 1000));
    expect(revived.received.map((mail) => mail.to)).toEqual([[recipient.email]]);
    expect(revived.received[0]?.decoded).toContain("Still here");
    // Delivered mail is not sent again.
    await app.mailer.retryDue(new Date(Date.now() + 2 * 60 * 60 * 1000));
    expect(revived.received).toHaveLength(1);
    await revived.close();
    await app.close();
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    "sends each queued mail once with two instances retrying together, and forgets its links once sent",
    async () => {
      const smtp = await startSmtpServer();
      const port = smtp.port;
      await smtp.close();
      const scratch = await scratchPostgres(process.env.TEST_DATABASE_URL as string, "penchain_outbox");
      const instances: App[] = [];
      for (let i = 0; i < 2; i++) {
        const database = await openDatabase({ url: scratch.url });
        await database.migrate();
        instances.push(await buildTestApp(database, { env: { SMTP_URL: `smtp://127.0.0.1:${port}` } }));
      }
      const [one, two] = instances as [App, App];
      const users = [];
      for (let i = 0; i < 6; i++) users.push(await signUp(i % 2 ? one : two));
      for (const [i, user] of users.entries()) {
        const app = i % 2 ? one : two;
        await app.inject({ method: "POST", url: "/api/users/forget-password-token", payload: { email: user.email } });
      }
      await Promise.all([one.mailer.idle(), two.mailer.idle()]);
      expect(await one.db.$count(mailOutbox)).toBe(6);

      const revived = await startSmtpServer(port);
      const later = new Date(Date.now() + 60 * 60 * 1000);
      await Promise.all([one.mailer.retryDue(later), two.mailer.retryDue(later), one.mailer.retryDue(later)]);
      expect(revived.received.map((mail) => mail.to[0]).sort()).toEqual(users.map((user) => user.email).sort());

      const rows = await one.db.select().from(mailOutbox);
      expect(rows.every((row) => row.sentAt !== null)).toBe(true);
      expect(JSON.stringify(rows)).not.toMatch(/reset-password\//);
      await revived.close();
      await one.close();
      await two.close();
      await scratch.drop();
    },
  );
});

describe("rate limits", () => {
  it("limits a sender and answers 429 with Retry-After", async () => {
    const smtp = await startSmtpServer();
    const app = await buildTestApp(await pgliteTarget.open(), {
      env: { SMTP_URL: smtp.url },
      rateLimits: { ...generousLimits, mailSender: { max: 2, timeWindow: 60_000 } },
    });
    const [sender, recipient] = [await signUp(app), await signUp(app)];
    const send = () =>
      app.inject({
        method: "POST",
        url: "/api/email",
        payload: { to: recipient.email, subject: "s", message: "m" },
        headers: bearer(sender),
      });
    expect((await send()).statusCode).toBe(200);
    expect((await send()).statusCode).toBe(200);
    const limited = await send();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited.json().message).toMatch(/^Too many requests/);
    await app.close();
    await smtp.close();
  });

  it("limits mail to one recipient across senders", async () => {
    const smtp = await startSmtpServer();
    const app = await buildTestApp(await pgliteTarget.open(), {
      env: { SMTP_URL: smtp.url },
      rateLimits: { ...generousLimits, mailRecipient: { max: 2, timeWindow: 60_000 } },
    });
    const recipient = await signUp(app);
    const senders = [await signUp(app), await signUp(app), await signUp(app)];
    const codes = [];
    for (const sender of senders) {
      const response = await app.inject({
        method: "POST",
        url: "/api/email",
        payload: { to: recipient.email, subject: "s", message: "m" },
        headers: bearer(sender),
      });
      codes.push(response.statusCode);
    }
    expect(codes).toEqual([200, 200, 429]);
    const limited = await app.inject({
      method: "POST",
      url: "/api/email",
      payload: { to: recipient.email, subject: "s", message: "m" },
      headers: bearer(senders[0] as { token: string }),
    });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    await app.close();
    await smtp.close();
  });

  it("limits login attempts with the production defaults", async () => {
    const app = await buildTestApp(await pgliteTarget.open(), { rateLimits: {} });
    const { DEFAULT_RATE_LIMITS } = await import("../../../src/server/plugins/rate-limits.ts");
    const codes = [];
    for (let attempt = 0; attempt <= DEFAULT_RATE_LIMITS.loginAccount.max; attempt++) {
      const response = await app.inject({
        method: "POST",
        url: "/api/users/login",
        payload: { email: "victim@example.com", password: `guess-${attempt}` },
      });
      codes.push(response.statusCode);
    }
    expect(codes.slice(0, -1).every((code) => code === 401)).toBe(true);
    expect(codes.at(-1)).toBe(429);
    await app.close();
  });

  it("scales every limit by RATE_LIMIT_FACTOR", async () => {
    const app = await buildTestApp(await pgliteTarget.open(), { rateLimits: {}, env: { RATE_LIMIT_FACTOR: "0.3" } });
    const codes = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      const response = await app.inject({
        method: "POST",
        url: "/api/users/login",
        payload: { email: "scaled@example.com", password: `guess-${attempt}` },
      });
      codes.push(response.statusCode);
    }
    // The login limit of 10 becomes 3.
    expect(codes).toEqual([401, 401, 401, 429]);
    await app.close();
  });
});

describe("mail without an SMTP server", () => {
  it("writes each message as an .eml file in the data folder", async () => {
    const app = await buildTestApp(await pgliteTarget.open());
    const user = await signUp(app);
    await app.inject({ method: "POST", url: "/api/users/forget-password-token", payload: { email: user.email } });
    await app.mailer.idle();
    const outbox = path.join(app.config.dataDir, "outbox");
    const files = fs.readdirSync(outbox).filter((file) => file.endsWith(".eml"));
    expect(files).toHaveLength(1);
    const eml = fs.readFileSync(path.join(outbox, files[0] as string), "utf8").replace(/=\n/g, "");
    expect(eml).toContain(`To: ${user.email}`);
    expect(eml).toMatch(/http:\/\/penchain\.test\/reset-password\/[A-Za-z0-9_-]{43}/);
    await app.close();
  });
});

describe("messages by user id", () => {
  it("let any signed-in user write from a profile without learning the address", async () => {
    const smtp = await startSmtpServer();
    const app = await buildTestApp(await pgliteTarget.open(), { env: { SMTP_URL: smtp.url } });
    const [sender, recipient] = [await signUp(app), await signUp(app)];
    const response = await app.inject({
      method: "POST",
      url: "/api/email",
      payload: { toId: recipient.id, subject: "Hi", message: "Nice post" },
      headers: bearer(sender),
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain(recipient.email);
    expect((await smtp.mailTo(recipient.email)).decoded).toMatch(new RegExp(`^Reply-To: ${sender.email}`, "m"));
    const unknown = await app.inject({
      method: "POST",
      url: "/api/email",
      payload: { toId: "00000000-0000-4000-8000-000000000000", subject: "Hi", message: "x" },
      headers: bearer(sender),
    });
    expect(unknown.statusCode).toBe(404);
    await app.close();
    await smtp.close();
  });
});
