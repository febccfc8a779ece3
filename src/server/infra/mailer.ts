import fs from "node:fs";
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type { Transporter } from "nodemailer";
import type { Db } from "../db/client.ts";
import { insertMail, type OutboxRow, type OutgoingMail, outboxRows } from "./mail-outbox.ts";
import { periodic } from "./periodic.ts";

export type Delivery = "sent" | "queued";

const RETRY_EVERY_MS = 30_000;
/** How many mails an instance sends at once while it drains a bulk send. */
const DRAIN_SENDERS = 3;
/**
 * A row being sent belongs to one instance this long; if that instance dies mid-send, another takes it after. Each
 * row is leased just before it is sent, and a send that takes half the lease is given up (and retried later), so no
 * lease runs out while its mail is still being sent.
 */
const LEASE_MS = 2 * 60_000;

/** Nodemailer loads with the first mail sent: a server that has sent none does not hold its memory. */
async function createTransport(smtpUrl: string | undefined): Promise<Transporter> {
  const { default: nodemailer } = await import("nodemailer");
  if (!smtpUrl) return nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const parsed = new URL(smtpUrl);
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
    // Reused connections: a new post to thousands of followers is not thousands of handshakes.
    pool: true,
    maxConnections: DRAIN_SENDERS,
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
  leaseMs?: number;
}) {
  const { db, log } = options;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const leaseUntil = (now = new Date()) => new Date(now.getTime() + leaseMs);
  const outbox = outboxRows(db, leaseUntil);
  const outboxDir = path.resolve(options.dataDir, "outbox");
  const senderDomain = /@([^>\s]+)/.exec(options.from)?.[1] ?? "penchain.local";
  let transport: Promise<Transporter> | undefined;

  async function deliver(row: OutboxRow) {
    let timer: NodeJS.Timeout | undefined;
    // A transport that could not be made is made again for the next mail.
    transport ??= createTransport(options.smtpUrl).catch((error) => {
      transport = undefined;
      throw error;
    });
    const info = await Promise.race([
      (await transport).sendMail({
        from: options.from,
        to: row.to,
        replyTo: row.replyTo ?? undefined,
        subject: row.subject,
        text: row.text,
        html: row.html,
        headers: row.headers ?? undefined,
        // One id per queued mail: should a send be repeated (an instance died between the server's answer and
        // marking it sent), receivers see the same message again, which mail services drop as a duplicate.
        messageId: `<${row.id}@${senderDomain}>`,
      }),
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error("the mail server took too long")), leaseMs / 2);
      }),
    ]).finally(() => clearTimeout(timer));
    if (!options.smtpUrl) {
      fs.mkdirSync(outboxDir, { recursive: true });
      const file = path.join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${row.id}.eml`);
      fs.writeFileSync(file, (info as { message: Buffer }).message);
    }
    await outbox.markSent(row);
  }

  async function attempt(row: OutboxRow): Promise<Delivery> {
    try {
      await deliver(row);
      return "sent";
    } catch (error) {
      const attempts = row.attempts + 1;
      const delay = Math.min(2 ** attempts * 15_000, 60 * 60_000);
      await outbox.markFailed(row, String((error as Error).message), new Date(Date.now() + delay));
      log.warn({ err: error, mailId: row.id, attempts }, "mail delivery failed; it stays queued");
      return "queued";
    }
  }

  /** Work that ends in mail, started after an answer left (see `later`). */
  const pending = new Set<Promise<unknown>>();
  let draining: Promise<unknown> | undefined;

  const mailer = {
    kind: options.smtpUrl ? ("smtp" as const) : ("outbox" as const),

    /**
     * Writes a mail into the outbox, leased to this instance from the start so no retry timer (here or elsewhere)
     * sends it while we do (`leased: false`: for whoever drains the outbox first). `tx` lets a caller queue it in
     * its own transaction (with a limit checked there).
     */
    enqueue: (mail: OutgoingMail, tx: Pick<Db, "insert"> = db, leased = true): Promise<OutboxRow> =>
      insertMail(tx, mail, leased ? leaseUntil() : new Date()),

    /** Sends a queued row now; what cannot be sent stays queued for a retry. */
    deliver: attempt,

    /** Queues a mail and sends it now, answering whether it went. */
    async send(mail: OutgoingMail): Promise<Delivery> {
      return attempt(await mailer.enqueue(mail));
    },

    /** Queues a mail (so it is never lost) and sends it after the caller has answered. */
    async queue(mail: OutgoingMail): Promise<void> {
      const row = await mailer.enqueue(mail);
      mailer.later(() => attempt(row));
    },

    /** Runs work that ends in mail off the request path; close() waits for it, errors are logged. */
    later(task: () => Promise<unknown>) {
      const running = task().catch((error) => log.error({ err: error }, "background mail work failed"));
      pending.add(running);
      void running.finally(() => pending.delete(running));
    },

    /**
     * Sends queued mail whose time has come, one row at a time: each is claimed and leased just before it is sent,
     * so with several instances (or a slow mail server) each mail is sent by one, once. Goes on until none is due
     * (or `batch` are sent); a mail that fails waits for its next attempt.
     */
    async retryDue(now = new Date(), batch = Number.POSITIVE_INFINITY) {
      // `now` may be a later time than the clock's (tests do that): the batch's clock runs on from it.
      const offset = now.getTime() - Date.now();
      for (let sent = 0; sent < batch; sent++) {
        const row = await outbox.claimOne(new Date(Date.now() + offset));
        if (!row) return;
        await attempt(row);
      }
    },

    /**
     * Mail was queued in bulk (a new post to its author's followers): sends it now, a few at a time, off the
     * request path. Other instances that are told too share the work through the leases.
     */
    drain() {
      if (draining) return;
      draining = Promise.all(Array.from({ length: DRAIN_SENDERS }, () => mailer.retryDue()))
        .catch((error) => log.error({ err: error }, "sending queued mail failed"))
        .finally(() => {
          draining = undefined;
        });
    },

    start() {
      retrying.start();
    },

    /** How many mails wait in the outbox, and how many it has sent. */
    counts: () => outbox.counts(),

    /** Resolves once the work started with `later` so far has ended. */
    async idle() {
      while (pending.size > 0) await Promise.all(pending);
    },

    async close() {
      await retrying.close();
      await draining;
      await Promise.all(pending);
      (await transport?.catch(() => undefined))?.close();
    },
  };
  const retrying = periodic(() => mailer.retryDue(), {
    everyMs: RETRY_EVERY_MS,
    onError: (error) => log.error({ err: error }, "mail retry failed"),
  });
  return mailer;
}
export type Mailer = ReturnType<typeof createMailer>;
