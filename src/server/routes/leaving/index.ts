import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { closeAccountSchema, closingStateSchema } from "#shared/schemas/leaving.ts";
import { currentUser } from "../../plugins/auth.ts";
import { security } from "../../plugins/docs.ts";
import { byUser, limitBy } from "../../plugins/rate-limits.ts";
import { requestClosing } from "../../services/leaving/closing.ts";
import { keepAccount } from "../../services/leaving/keep.ts";

const tags = ["leaving"];

/** Closing an account (and changing one's mind). */
export const leavingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post("/close", {
    schema: {
      tags,
      security,
      summary:
        "Close the signed-in account, with its password: every session ends, and it is erased in 14 days unless its owner signs in before",
      body: closeAccountSchema,
      response: { 202: closingStateSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "loginAccount", (request) => currentUser(request).email)],
    handler: async (request, reply) =>
      reply.code(202).send(await requestClosing(app.deps, currentUser(request), request.body)),
  });

  app.delete("/close", {
    schema: {
      tags,
      security,
      summary: "Keep the account after all (signing in does the same)",
      response: { 200: closingStateSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "profileUpdates", byUser)],
    handler: async (request) => keepAccount(app.deps, currentUser(request)),
  });
};
