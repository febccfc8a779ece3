import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  createdTokenSchema,
  createTokenSchema,
  tokenIdParamsSchema,
  tokenListSchema,
  tokenSchema,
} from "#shared/schemas/tokens.ts";
import { HttpError } from "../../http-error.ts";
import { currentUser } from "../../plugins/auth.ts";
import { byUser, limitBy } from "../../plugins/rate-limits.ts";
import { TOKEN_NOT_ALLOWED_HERE } from "../../plugins/token-auth.ts";
import { createToken, listTokens, revokeToken } from "../../services/tokens/tokens.ts";

const tags = ["tokens"];

/** Tokens never make or see tokens: these routes name no scope, and refuse a token outright besides. */
async function sessionOnly(request: FastifyRequest) {
  if (request.apiToken) throw new HttpError(403, TOKEN_NOT_ALLOWED_HERE);
}

/** Personal access tokens (docs/tokens.md): made, listed and revoked by a signed-in session. */
export const tokenRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post("/", {
    schema: {
      tags,
      summary: "Make a personal access token; its secret is in this answer only (a session, not a token)",
      body: createTokenSchema,
      response: { 201: createdTokenSchema },
    },
    preHandler: [app.requireUser, sessionOnly, limitBy(app, "accountChanges", byUser)],
    handler: async (request, reply) =>
      reply.code(201).send(await createToken(request.deps, currentUser(request), request.body)),
  });

  app.get("/", {
    schema: {
      tags,
      summary: "The signed-in user's tokens: names, scopes, when made, last used and expiring; never their secrets",
      response: { 200: tokenListSchema },
    },
    preHandler: [app.requireUser, sessionOnly],
    handler: async (request) => listTokens(request.deps, currentUser(request)),
  });

  app.delete("/:id", {
    schema: {
      tags,
      summary: "Revoke one of the signed-in user's tokens: it stops working at once",
      params: tokenIdParamsSchema,
      response: { 200: tokenSchema },
    },
    preHandler: [app.requireUser, sessionOnly],
    handler: async (request) => revokeToken(request.deps, currentUser(request), request.params.id),
  });
};
