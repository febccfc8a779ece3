import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { sessionSchema } from "#shared/schemas/session.ts";
import { siweNonceSchema, siweProofSchema } from "#shared/schemas/siwe.ts";
import { byAddress, limitBy } from "../../plugins/rate-limits.ts";
import { createNonce } from "../../services/auth/siwe.ts";
import { loginWithWallet } from "../../services/auth/wallets.ts";

const tags = ["auth"];

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/siwe/nonce", {
    schema: { tags, summary: "A single-use nonce for Sign-In with Ethereum", response: { 200: siweNonceSchema } },
    preHandler: limitBy(app, "siwe", byAddress),
    handler: async (request, reply) =>
      reply.header("cache-control", "no-store").send({ nonce: await createNonce(request.deps) }),
  });

  app.post("/siwe/verify", {
    schema: {
      tags,
      summary: "Log in with a signed SIWE message; the response is the session",
      body: siweProofSchema,
      response: { 200: sessionSchema },
    },
    preHandler: limitBy(app, "siwe", byAddress),
    handler: async (request) => loginWithWallet(request.deps, request.body),
  });
};
