import fs from "node:fs";
import path from "node:path";
import { and, asc, eq, inArray, isNull, lt, lte } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";
import type { Db } from "../db/client.ts";
import { mailOutbox } from "../db/schema.ts";
import type { MailContent } from "./mail-templates.ts";

export type Delivery = "sent" | "queued";
const MAX_ATTEMPTS = 8;
const RETRY_EVERY_MS = 30_000;
/** A row being sent belongs to one instance this long; if that instance dies mid-send, another takes it after. */
const LEASE_MS = 2 * 60_000;
const leaseUntil = (now = new Date()) => new Date(now.getTime() + LEASE_MS);

function smtpTransport(url: string) {
  const parsed = new URL(url);
  return nodemailer.createTransport({
    host: parsed.hostname,
    port: Number(parsed.port) || (parsed.protocol === "smtps:" ? 465 : 587),
    secure: parsed.protocol === "smtps:",
    auth: parsed.username
      ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) }
      : undefined,
    connectionTimeout: 5000,
    greetingTimeout: 5000,
    socketTimeout: 15_000,
  });
}

/**
 * All mail goes through the outbox table: it is written first, then delivered. Mail that cannot be delivered now
 * stays there and is retried with back-off, so nothing is lost when the mail server is down. Without SMTP_URL,
 * messages are written as .eml files into <data>/outbox.
 */
export function createMailer(options: {
  db: Db;
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
  log: FastifyBaseLogger;
}) {
  const { db, log } = options;
  const outboxDir = path.resolve(options.dataDir, "outbox");
  const transport = options.smtpUrl
    ? smtpTransport(options.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });

  async function deliver(row: typeof mailOutbox.$inferSelect) {
    const info = await transport.sendMail({
      from: options.from,
      to: row.to,
      replyTo: row.replyTo ?? undefined,
      subject: row.subject,
      text: row.text,
      html: row.html,
    });
    if (!options.smtpUrl) {
      fs.mkdirSync(outboxDir, { recursive: true });
      const file = path.join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${row.id}.eml`);
      fs.writeFileSync(file, (info as { message: Buffer }).message);
    }
    // Once sent, the body (which may hold a live reset or verification link) is not kept.
    await db
      .update(mailOutbox)
      .set({ sentAt: new Date(), attempts: row.attempts + 1, lastError: null, text: "", html: "" })
      .where(eq(mailOutbox.id, row.id));
  }

  async function attempt(row: typeof mailOutbox.$inferSelect): Promise<Delivery> {
    try {
      await deliver(row);
      return "sent";
    } catch (error) {
      const attempts = row.attempts + 1;
      const delay = Math.min(2 ** attempts * 15_000, 60 * 60_000);
      await db
        .update(mailOutbox)
        .set({
          attempts,
          lastError: String((error as Error).message).slice(0, 500),
          nextAttemptAt: new Date(Date.now() + delay),
        })
        .where(eq(mailOutbox.id, row.id));
      log.warn({ err: error, mailId: row.id, attempts }, "mail delivery failed; it stays queued");
      return "queued";
    }
  }

  let timer: NodeJS.Timeout | undefined;
  let retrying: Promise<unknown> = Promise.resolve();

  const mailer = {
    kind: options.smtpUrl ? ("smtp" as const) : ("outbox" as const),

    async send(mail: MailContent & { to: string; replyTo?: string }): Promise<Delivery> {
      // Leased to this instance from the start, so no retry timer (here or elsewhere) sends it while we do.
      const [row] = await db
        .insert(mailOutbox)
        .values({
          to: mail.to,
          replyTo: mail.replyTo ?? null,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          nextAttemptAt: leaseUntil(),
        })
        .returning();
      if (!row) throw new Error("mail was not queued");
      return attempt(row);
    },

    /**
     * Retries queued mail whose time has come. Rows are claimed in one statement that skips rows another instance
     * has locked and leases them, so with several instances each mail is sent by one.
     */
    async retryDue(now = new Date()) {
      const due = db
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(
          and(isNull(mailOutbox.sentAt), lte(mailOutbox.nextAttemptAt, now), lt(mailOutbox.attempts, MAX_ATTEMPTS)),
        )
        .orderBy(asc(mailOutbox.nextAttemptAt))
        .limit(20)
        .for("update", { skipLocked: true });
      const claimed = await db
        .update(mailOutbox)
        .set({ nextAttemptAt: leaseUntil(now) })
        .where(inArray(mailOutbox.id, due))
        .returning();
      for (const row of claimed) await attempt(row);
    },

    start() {
      timer = setInterval(() => {
        retrying = mailer.retryDue().catch((error) => log.error({ err: error }, "mail retry failed"));
      }, RETRY_EVERY_MS);
      timer.unref();
    },

    async close() {
      clearInterval(timer);
      await retrying;
      transport.close();
    },
  };
  return mailer;
}
export type Mailer = ReturnType<typeof createMailer>;
