import { and, asc, eq, inArray, isNotNull, isNull, lt, lte } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { mailOutbox } from "../db/schema.ts";
import type { MailContent } from "./mail-templates.ts";

/** The outbox table's statements: a mail written, claimed for sending, sent or failed. */

export type OutboxRow = typeof mailOutbox.$inferSelect;
export type OutgoingMail = MailContent & { to: string; replyTo?: string };
const MAX_ATTEMPTS = 8;

/** Writes a mail into the outbox, not to be sent by anyone else before `nextAttemptAt`. */
export async function insertMail(db: Pick<Db, "insert">, mail: OutgoingMail, nextAttemptAt: Date) {
  const [row] = await db
    .insert(mailOutbox)
    .values({
      to: mail.to,
      replyTo: mail.replyTo ?? null,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      headers: mail.headers ?? null,
      nextAttemptAt,
    })
    .returning();
  if (!row) throw new Error("mail was not queued");
  return row;
}

export function outboxRows(db: Db, leaseUntil: (now: Date) => Date) {
  return {
    /** Claims one due row (skipping rows another instance has locked) and leases it, or null. */
    async claimOne(now: Date): Promise<OutboxRow | null> {
      const due = db
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(
          and(isNull(mailOutbox.sentAt), lte(mailOutbox.nextAttemptAt, now), lt(mailOutbox.attempts, MAX_ATTEMPTS)),
        )
        .orderBy(asc(mailOutbox.nextAttemptAt))
        .limit(1)
        .for("update", { skipLocked: true });
      const [row] = await db
        .update(mailOutbox)
        .set({ nextAttemptAt: leaseUntil(now) })
        .where(and(inArray(mailOutbox.id, due), lte(mailOutbox.nextAttemptAt, now)))
        .returning();
      return row ?? null;
    },

    /** Once sent, the body (which may hold a live reset or verification link) is not kept. */
    markSent: (row: OutboxRow) =>
      db
        .update(mailOutbox)
        .set({ sentAt: new Date(), attempts: row.attempts + 1, lastError: null, text: "", html: "" })
        .where(eq(mailOutbox.id, row.id)),

    markFailed: (row: OutboxRow, error: string, nextAttemptAt: Date) =>
      db
        .update(mailOutbox)
        .set({ attempts: row.attempts + 1, lastError: error.slice(0, 500), nextAttemptAt })
        .where(eq(mailOutbox.id, row.id)),

    /** How many mails wait in the outbox, and how many it has sent. */
    async counts() {
      const [queued, sent] = await Promise.all([
        db.$count(mailOutbox, isNull(mailOutbox.sentAt)),
        db.$count(mailOutbox, isNotNull(mailOutbox.sentAt)),
      ]);
      return { queued, sent };
    },
  };
}
