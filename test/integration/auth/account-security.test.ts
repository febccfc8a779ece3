import { sql } from "drizzle-orm";
import pino from "pino";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { mailOutbox } from "../../../src/server/db/schema.ts";
import { createMailer } from "../../../src/server/infra/mailer.ts";
import { COMMON_PASSWORD } from "../../../src/server/services/auth/password-rules.ts";
import { BAD_CHECKSUM } from "../../../src/server/services/auth/wallets.ts";
import { buildTestApp, generousLimits, keepOpen } from "../../support/app.ts";
import { databaseTargets } from "../../support/databases.ts";
import { startSmtpServer } from "../../support/smtp.ts";
import { bearer, buildRegistration, signUp, siweProof, verifyWallet } from "../../support/users.ts";

const alice = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const mallory = privateKeyToAccount("0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdee365a");

/** An SMTP server taking `delayMs` to accept each message, and the addresses it received, in order. */
async function startSlowSmtp(delayMs: number) {
  const server = await startSmtpServer(0, { delayMs });
  return { ...server, addresses: () => server.received.flatMap((mail) => mail.to) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

describe.each(databaseTargets)("account security on $name", (target) => {
  let app: App;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await buildTestApp(await target.open(), { env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  const register = (overrides: object) =>
    app.inject({ method: "POST", url: "/api/users/register", payload: buildRegistration(overrides) });
  const mailsTo = (email: string, subject: string) =>
    smtp.received.filter((mail) => mail.to.includes(email) && mail.decoded.includes(subject));
  async function waitForMail(email: string, subject: string) {
    for (let waited = 0; waited < 5000; waited += 50) {
      if (mailsTo(email, subject).length > 0) return mailsTo(email, subject);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no "${subject}" mail to ${email}`);
  }

  it("refuses the most common passwords, in any case, at registration, change and reset", async () => {
    for (const password of ["password1", "PASSWORD1", "iloveyou", "12345678", "qwertyuiop"]) {
      const response = await register({ password });
      expect(response.statusCode, password).toBe(400);
      expect(response.json()).toMatchObject({ message: COMMON_PASSWORD, issues: [{ path: "password" }] });
    }
    const user = await signUp(app);
    const change = await app.inject({
      method: "PUT",
      url: "/api/users/password",
      payload: { password: "letmein123", currentPassword: user.password },
      headers: bearer(user),
    });
    expect(change.statusCode).toBe(400);
    expect(change.json().message).toBe(COMMON_PASSWORD);
    const reset = await app.inject({
      method: "PUT",
      url: "/api/users/reset-password",
      payload: { token: "x".repeat(43), password: "baseball1" },
    });
    expect(reset.json().message).toBe(COMMON_PASSWORD);
  });

  it("refuses a wallet address whose mixed case is not its EIP-55 checksum, and keeps one address in one case", async () => {
    const checksummed = alice.address;
    // The same address with one letter's case flipped: a typo EIP-55 exists to catch.
    const letter = checksummed.slice(2).search(/[a-fA-F]/) + 2;
    const flipped = checksummed[letter] as string;
    const other = flipped === flipped.toUpperCase() ? flipped.toLowerCase() : flipped.toUpperCase();
    const broken = `${checksummed.slice(0, letter)}${other}${checksummed.slice(letter + 1)}`;
    expect(broken.toLowerCase()).toBe(checksummed.toLowerCase());
    expect(broken).not.toBe(checksummed);
    const refused = await register({ walletAddress: broken });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ message: BAD_CHECKSUM, issues: [{ path: "walletAddress" }] });
    const lower = await register({ walletAddress: checksummed.toLowerCase() });
    const upper = await register({ walletAddress: `0x${checksummed.slice(2).toUpperCase()}` });
    const exact = await register({ walletAddress: checksummed });
    for (const response of [lower, upper, exact]) expect(response.statusCode).toBe(201);
    expect(new Set([lower, upper, exact].map((response) => response.json().walletAddress))).toEqual(
      new Set([checksummed]),
    );
  });

  it("mails the owner when the password is changed or reset", async () => {
    const user = await signUp(app);
    await app.inject({
      method: "PUT",
      url: "/api/users/password",
      payload: { password: "a brand new secret", currentPassword: user.password },
      headers: bearer(user),
    });
    const [changed] = await waitForMail(user.email, "password was changed");
    expect(changed?.decoded).toContain("was changed just now");
    expect(changed?.decoded).toContain("http://penchain.test/password-reset-token");

    await app.inject({ method: "POST", url: "/api/users/forget-password-token", payload: { email: user.email } });
    const [link] = await waitForMail(user.email, "Reset your Penchain password");
    const token = /reset-password\/([\w-]{43})/.exec(link?.decoded ?? "")?.[1];
    const reset = await app.inject({
      method: "PUT",
      url: "/api/users/reset-password",
      payload: { token, password: "another brand new secret" },
    });
    expect(reset.statusCode).toBe(200);
    await waitForMail(user.email, "was reset just now");
  });

  it("asks the current password to replace a verified wallet, tells the owner, and a reset can unlink it", async () => {
    const user = await signUp(app);
    await verifyWallet(app, user, alice);
    await waitForMail(user.email, alice.address);
    const proof = (account = mallory) => siweProof(app, account);
    const link = async (body: object) =>
      app.inject({ method: "POST", url: "/api/users/wallet", payload: body, headers: bearer(user) });

    // A stolen session alone cannot plant another wallet.
    const bare = await link(await proof());
    expect(bare.statusCode).toBe(400);
    expect(bare.json().issues[0]).toMatchObject({ path: "currentPassword", message: "Current Password is required" });
    const wrong = await link({ ...(await proof()), currentPassword: "not it at all" });
    expect(wrong.json().issues[0].message).toBe("Current Password is incorrect");
    // Signing again with the wallet already verified needs no password.
    expect((await link(await proof(alice))).statusCode).toBe(200);
    const replaced = await link({ ...(await proof()), currentPassword: user.password });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().walletAddress).toBe(mallory.address);
    await waitForMail(user.email, mallory.address);

    const walletLogin = async () =>
      app.inject({ method: "POST", url: "/api/auth/siwe/verify", payload: await proof() });
    expect((await walletLogin()).statusCode).toBe(200);
    await app.inject({ method: "POST", url: "/api/users/forget-password-token", payload: { email: user.email } });
    const [mail] = await waitForMail(user.email, "Reset your Penchain password");
    const token = /reset-password\/([\w-]{43})/.exec(mail?.decoded ?? "")?.[1];
    await app.inject({
      method: "PUT",
      url: "/api/users/reset-password",
      payload: { token, password: "taking it back now", unlinkWallet: true },
    });
    expect((await walletLogin()).statusCode).toBe(404);
    await waitForMail(user.email, "the wallet verified for logging in was unlinked");
  });

  it("sends at most the per-recipient limit of messages however many senders write at once", async () => {
    const limited = await buildTestApp(keepOpen(app.database), {
      env: { SMTP_URL: smtp.url },
      rateLimits: { ...generousLimits, mailRecipient: { max: 3, timeWindow: 60_000 } },
    });
    const recipient = await signUp(limited);
    const senders = await Promise.all(Array.from({ length: 10 }, () => signUp(limited)));
    const answers = await Promise.all(
      senders.map((sender) =>
        limited.inject({
          method: "POST",
          url: "/api/email",
          payload: { to: recipient.email, subject: "Hello", message: "At once" },
          headers: bearer(sender),
        }),
      ),
    );
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 200 || code === 202)).toHaveLength(3);
    expect(codes.filter((code) => code === 429)).toHaveLength(7);
    const queued = await limited.db.$count(mailOutbox, sql`lower(${mailOutbox.to}) = ${recipient.email}`);
    expect(queued).toBe(3);
    await limited.close();
  });
});

describe("the answer to a password reset request takes as long for known and unknown addresses", () => {
  it("answers before looking anything up or sending, even with a slow mail server", async () => {
    const slow = await startSlowSmtp(400);
    const target = databaseTargets[0];
    const app = await buildTestApp(await (target as (typeof databaseTargets)[number]).open(), {
      env: { SMTP_URL: slow.url },
    });
    const known = await Promise.all(Array.from({ length: 12 }, () => signUp(app)));
    const time = async (email: string) => {
      const start = performance.now();
      const response = await app.inject({
        method: "POST",
        url: "/api/users/forget-password-token",
        payload: { email },
      });
      expect(response.statusCode).toBe(200);
      return performance.now() - start;
    };
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (const [index, user] of known.entries()) {
      knownTimes.push(await time(user.email));
      unknownTimes.push(await time(`nobody-${index}@example.com`));
    }
    // The mail server alone takes 400 ms a message: an answer that waited for it would show.
    expect(median(knownTimes)).toBeLessThan(150);
    expect(Math.abs(median(knownTimes) - median(unknownTimes))).toBeLessThan(50);
    await app.mailer.idle();
    expect(slow.addresses().sort()).toEqual(known.map((user) => user.email).sort());
    await app.close();
    await slow.close();
  });
});

describe.each(databaseTargets)("the outbox with a slow mail server on $name", (target) => {
  it("sends each queued mail once with two senders retrying at once, each row leased just before it is sent", async () => {
    const slow = await startSlowSmtp(300);
    const database = await target.open();
    const log = pino({ level: "silent" });
    const mailers = [0, 1].map(() =>
      createMailer({
        db: database.db,
        smtpUrl: slow.url,
        from: "Penchain <no-reply@penchain.test>",
        dataDir: "/tmp",
        log,
        leaseMs: 1000,
      }),
    );
    const [one, two] = mailers as [ReturnType<typeof createMailer>, ReturnType<typeof createMailer>];
    const recipients = Array.from({ length: 8 }, (_, index) => `reader-${index}@example.com`);
    for (const to of recipients) await one.enqueue({ to, subject: "Queued", text: "x", html: "<p>x</p>" });
    await database.db.update(mailOutbox).set({ nextAttemptAt: new Date(Date.now() - 1000) });
    // The second starts while the first is well into its batch, past the first rows' lease.
    const first = one.retryDue();
    await new Promise((resolve) => setTimeout(resolve, 1300));
    await Promise.all([first, two.retryDue()]);
    expect(slow.addresses().sort()).toEqual([...recipients].sort());
    const rows = await database.db.select({ sentAt: mailOutbox.sentAt }).from(mailOutbox);
    expect(rows.every((row) => row.sentAt !== null)).toBe(true);
    await Promise.all(mailers.map((mailer) => mailer.close()));
    await database.close();
    await slow.close();
  });
});
