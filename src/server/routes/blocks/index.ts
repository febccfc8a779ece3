import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { mutedWordsInputSchema, relationResultSchema, relationsSchema } from "#shared/schemas/blocks.ts";
import { userIdParamsSchema } from "#shared/schemas/users.ts";
import { currentUser } from "../../plugins/auth.ts";
import { byUser, limitBy } from "../../plugins/rate-limits.ts";
import { listRelations, replaceMutedWords, setBlocked, setMuted } from "../../services/blocks/blocks.ts";

const tags = ["blocks"];

/** Blocks and mutes between users, and muted words: `/api/users/block/{id}`, `/mute`, `/api/me/…`. */
export const blockRoutes: FastifyPluginAsyncZod = async (app) => {
  const relations = [
    { path: "block", set: setBlocked, doing: "Block", undoing: "Unblock" },
    { path: "mute", set: setMuted, doing: "Mute", undoing: "Unmute" },
  ] as const;
  for (const { path, set, doing, undoing } of relations) {
    for (const [method, on] of [
      ["POST", true],
      ["DELETE", false],
    ] as const) {
      app.route({
        method,
        url: `/users/${path}/:id`,
        schema: {
          tags,
          summary: `${on ? doing : undoing} a user`,
          params: userIdParamsSchema,
          response: { 200: relationResultSchema },
        },
        preHandler: [app.requireUser, limitBy(app, "follows", byUser)],
        handler: async (request) => set(request.deps, currentUser(request), request.params.id, on),
      });
    }
  }

  app.get("/me/relations", {
    schema: {
      tags,
      summary: "Whom the caller blocked and muted, and the words they muted",
      response: { 200: relationsSchema },
    },
    preHandler: app.requireUser,
    handler: async (request) => listRelations(request.deps, currentUser(request)),
  });

  app.put("/me/muted-words", {
    schema: {
      tags,
      summary: "Replace the caller's muted words (their feed and notifications leave out what holds one)",
      body: mutedWordsInputSchema,
      response: { 200: relationsSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "accountChanges", byUser)],
    handler: async (request) => replaceMutedWords(request.deps, currentUser(request), request.body),
  });
};
