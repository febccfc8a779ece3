import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { postIdParamsSchema } from "#shared/schemas/posts.ts";
import {
  provenanceSchema,
  revisionParamsSchema,
  revisionSignatureBodySchema,
  revisionSignedSchema,
} from "#shared/schemas/provenance.ts";
import { HttpError } from "../../http-error.ts";
import { currentUser } from "../../plugins/auth.ts";
import { byUser, limitBy } from "../../plugins/rate-limits.ts";
import { sendCached } from "../../plugins/read-cache.ts";
import { POST_NOT_FOUND } from "../../services/core/post-queries.ts";
import { type Provenance, signRevision, typedDataToSign } from "../../services/provenance/revisions.ts";

const tags = ["provenance"];

/** A post's revisions and their signatures (docs/provenance.md). */
export const provenanceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/:id/provenance", {
    config: { scope: "posts:read" },
    schema: {
      tags,
      summary:
        "A published post's revisions with their digests, the author's signatures and the site's proofs; whether the post still matches its latest revision; for its author, the typed data still to sign",
      params: postIdParamsSchema,
      response: { 200: provenanceSchema },
    },
    preHandler: app.identifyUser,
    handler: async (request, reply) => {
      const entry = await app.reads.provenance(request.params.id);
      const toSign = typedDataToSign(entry.value as Provenance, request.user ?? null, request.deps.config.chain.id);
      return toSign ? { ...(entry.value as Provenance), toSign } : sendCached(request, reply, entry);
    },
  });

  app.post("/:id/revisions/:revision/signature", {
    schema: {
      tags,
      summary: "Sign a revision of one's own post with one's verified wallet (EIP-712; EOAs and smart accounts)",
      params: revisionParamsSchema,
      body: revisionSignatureBodySchema,
      response: { 200: revisionSignedSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "posts", byUser)],
    handler: async (request) =>
      signRevision(
        request.deps,
        currentUser(request),
        request.params.id,
        request.params.revision,
        request.body.signature as `0x${string}`,
      ),
  });
};

/** The provenance page, server-rendered and readable without script. */
export const provenancePageRoute: FastifyPluginAsyncZod = async (app) => {
  app.get("/posts/:id/provenance", { schema: { hide: true } }, async (request, reply) => {
    const parsed = postIdParamsSchema.safeParse(request.params);
    if (!parsed.success) throw new HttpError(404, POST_NOT_FOUND);
    const entry = await app.reads.provenancePage(parsed.data.id);
    reply.header("cache-control", "no-cache");
    return sendCached(request, reply, entry);
  });
};
