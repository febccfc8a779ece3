import { and, asc, eq, gt, isNotNull, sql } from "drizzle-orm";
import { CANNOT_MESSAGE } from "#shared/schemas/blocks.ts";
import type { SendMailInput } from "#shared/schemas/users.ts";
import { mailOutbox, users } from "../db/schema.ts";
import { HttpError } from "../http-error.ts";
import { userMessageMail } from "../infra/mail-templates.ts";
import { isBlocked } from "./blocks/blocks.ts";
import type { AuthUser } from "./core/auth-user.ts";
import type { Deps } from "./core/deps.ts";
import { NOTHING_PUBLIC } from "./core/tags.ts";

/**
 * Counted in the outbox, where the recipient is known. Called in the transaction that queues the message, after a
 * lock on the recipient, so two senders at once cannot both pass the last free place.
 */
async function limitRecipient(deps: Pick<MessageDeps, "db" | "recipientLimit">, email: string) {
  await deps.db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`mail-to:${email.toLowerCase()}`}, 0))`);
  const { max, timeWindow } = deps.recipientLimit;
  const since = new Date(Date.now() - timeWindow);
  const recent = await deps.db
    .select({ createdAt: mailOutbox.createdAt })
    .from(mailOutbox)
    .where(
      and(
        sql`lower(${mailOutbox.to}) = lower(${email})`,
        isNotNull(mailOutbox.replyTo),
        gt(mailOutbox.createdAt, since),
      ),
    )
    .orderBy(asc(mailOutbox.createdAt))
    .limit(max);
  const oldest = recent[0];
  if (recent.length >= max && oldest) {
    const retryAfter = Math.max(1, Math.ceil((oldest.createdAt.getTime() + timeWindow - Date.now()) / 1000));
    throw new HttpError(429, `This user has received many messages. Please try again in ${retryAfter} seconds.`, {
      "retry-after": String(retryAfter),
    });
  }
}

/** However many people write, a recipient gets at most `max` user messages per `timeWindow` ms. */
type MessageDeps = Pick<Deps, "db" | "mailer" | "changed"> & { recipientLimit: { max: number; timeWindow: number } };

const SENT = { status: 200 as const, message: "Email sent" };

/**
 * A signed-in user's message to a registered user, sent by us with the sender as reply-to. An address that is not
 * a user's gets the same answer as one that is (nothing is sent), so the form cannot tell who is registered.
 */
export async function sendUserMessage(deps: MessageDeps, sender: AuthUser, input: SendMailInput) {
  deps.changed(NOTHING_PUBLIC);
  const [recipient] = await deps.db
    .select()
    .from(users)
    .where(input.toId ? eq(users.id, input.toId) : sql`lower(${users.email}) = lower(${input.to ?? ""})`);
  if (!recipient && input.toId) throw new HttpError(404, "User not found");
  if (!recipient) return SENT;
  if (await isBlocked(deps, { ownerId: recipient.id, actorId: sender.id, both: true })) {
    // Written to an address, it is answered as one that is no one's: the form tells no one who blocked them.
    if (input.toId) throw new HttpError(403, CANNOT_MESSAGE);
    return SENT;
  }
  const name = `${sender.firstName} ${sender.lastName}`;
  const row = await deps.db.transaction(async (tx) => {
    await limitRecipient({ ...deps, db: tx }, recipient.email);
    return deps.mailer.enqueue(
      {
        to: recipient.email,
        replyTo: sender.email,
        ...userMessageMail({ name, email: sender.email }, input.subject, input.message),
      },
      tx,
    );
  });
  const delivery = await deps.mailer.deliver(row);
  return delivery === "sent"
    ? SENT
    : {
        status: 202 as const,
        message: "The mail server is not answering. Your message is queued and will be sent shortly.",
      };
}
