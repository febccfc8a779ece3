import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { SendMailInput } from "../../../shared/schemas/users.ts";
import { users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import type { AuthUser } from "../../plugins/auth.ts";
import { userMessageMail } from "../mail-templates.ts";

/** A signed-in user's message to a registered user, sent by us with the sender as reply-to. */
export async function sendUserMessage(app: FastifyInstance, sender: AuthUser, input: SendMailInput) {
  const [recipient] = await app.db.select().from(users).where(sql`lower(${users.email}) = lower(${input.to})`);
  if (!recipient) throw new HttpError(404, "No registered user has this e-mail address");
  const name = `${sender.firstName} ${sender.lastName}`;
  const delivery = await app.mailer.send({
    to: recipient.email,
    replyTo: sender.email,
    ...userMessageMail({ name, email: sender.email }, input.subject, input.message),
  });
  return delivery === "sent"
    ? { status: 200 as const, message: "Email sent" }
    : {
        status: 202 as const,
        message: "The mail server is not answering. Your message is queued and will be sent shortly.",
      };
}
