import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { messageSchema, sendMailSchema } from "#shared/schemas/users.ts";
import { currentUser } from "../../plugins/auth.ts";
import { byUser, limitBy } from "../../plugins/rate-limits.ts";
import { sendUserMessage } from "../../services/messages.ts";

/** Messages between users, sent as e-mail (docs/specification.md §Send message). */
export const messageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post("/", {
    schema: {
      tags: ["users"],
      summary: "E-mail a registered user, by address or id (reply-to is the sender)",
      body: sendMailSchema,
      response: { 200: messageSchema, 202: messageSchema },
    },
    // The per-recipient limit is counted in the outbox (see sendUserMessage), where the recipient is known.
    preHandler: [app.requireUser, limitBy(app, "mailSender", byUser)],
    handler: async (request, reply) => {
      const { status, message } = await sendUserMessage(
        { ...request.deps, recipientLimit: app.limiter.limits.mailRecipient },
        currentUser(request),
        request.body,
      );
      return reply.code(status).send({ message });
    },
  });
};
