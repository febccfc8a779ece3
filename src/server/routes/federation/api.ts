import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  blockDomainSchema,
  blockedDomainsSchema,
  domainParamsSchema,
  pendingRepliesSchema,
  postFediverseSchema,
  remoteReplySchema,
} from "#shared/schemas/federation.ts";
import { messageSchema } from "#shared/schemas/users.ts";
import { currentUser } from "../../plugins/auth.ts";
import { byAddress, byUser, limitBy } from "../../plugins/rate-limits.ts";
import { blockDomain, listBlockedDomains, unblockDomain } from "../../services/federation/domains.ts";
import { approveReply, pendingReplies, postFediverse, removeReply } from "../../services/federation/replies.ts";

const tags = ["federation"];
const idParams = z.object({ id: z.uuid("Invalid id") });
// Replies from the fediverse are read apart from the cached public reads: nothing kept changes.

/** What the fediverse sent back to posts, the authors' approval of first replies, and the admin's blocked domains. */
export const federationApiRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/posts/:id", {
    schema: {
      tags,
      summary: "A post's replies, likes and boosts from the fediverse",
      params: idParams,
      response: { 200: postFediverseSchema },
    },
    preHandler: limitBy(app, "fediverseReads", byAddress),
    handler: async (request) => postFediverse(request.deps, request.params.id),
  });

  app.get("/replies/pending", {
    config: { scope: "comments:write" },
    schema: {
      tags,
      summary: "Replies from accounts replying for the first time, waiting for the post's author (all, for an admin)",
      response: { 200: pendingRepliesSchema },
    },
    preHandler: app.requireUser,
    handler: async (request) => pendingReplies(request.deps, currentUser(request)),
  });

  app.put("/replies/:id/approve", {
    config: { scope: "comments:write" },
    schema: {
      tags,
      summary: "Show a waiting reply; its account's next replies to this author show at once",
      params: idParams,
      response: { 200: remoteReplySchema },
    },
    preHandler: [app.requireUser, limitBy(app, "replyModeration", byUser)],
    handler: async (request) => approveReply(request.deps, currentUser(request), request.params.id),
  });

  app.delete("/replies/:id", {
    config: { scope: "comments:write" },
    schema: {
      tags,
      summary: "Remove a reply from the fediverse (the post's author or an admin)",
      params: idParams,
      response: { 200: messageSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "replyModeration", byUser)],
    handler: async (request) => {
      await removeReply(request.deps, currentUser(request), request.params.id);
      return { message: "Reply removed" };
    },
  });

  app.get("/blocked-domains", {
    config: { scope: "admin" },
    schema: {
      tags,
      summary: "Domains whose activities are refused",
      response: { 200: blockedDomainsSchema },
    },
    preHandler: app.requireAdmin,
    handler: async (request) => listBlockedDomains(request.deps),
  });

  app.post("/blocked-domains", {
    config: { scope: "admin" },
    schema: {
      tags,
      summary: "Block a domain: its activities are refused, its followers, replies and reactions dropped",
      body: blockDomainSchema,
      response: { 201: blockedDomainsSchema },
    },
    preHandler: app.requireAdmin,
    handler: async (request, reply) => {
      await blockDomain(
        request.deps,
        currentUser(request),
        request.body.domain,
        new URL(app.config.publicUrl).hostname,
      );
      return reply.code(201).send(await listBlockedDomains(request.deps));
    },
  });

  app.delete("/blocked-domains/:domain", {
    config: { scope: "admin" },
    schema: {
      tags,
      summary: "Unblock a domain",
      params: domainParamsSchema,
      response: { 200: blockedDomainsSchema },
    },
    preHandler: app.requireAdmin,
    handler: async (request) => {
      await unblockDomain(request.deps, request.params.domain);
      return listBlockedDomains(request.deps);
    },
  });
};
