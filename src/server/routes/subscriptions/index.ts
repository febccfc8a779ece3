import type { FastifyPluginAsync } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  confirmParamsSchema,
  confirmResultSchema,
  subscribeResultSchema,
  subscriberCountsSchema,
  subscribeSchema,
  subscriptionLinkSchema,
  subscriptionStateSchema,
} from "#shared/schemas/subscriptions.ts";
import { userIdParamsSchema } from "#shared/schemas/users.ts";
import { currentUser } from "../../plugins/auth.ts";
import { acceptOneClickForm, sendCsv } from "../../plugins/downloads.ts";
import { byAddress, byUser, limitBy } from "../../plugins/rate-limits.ts";
import { subscriberLimitKey } from "../../services/subscribers/address-key.ts";
import {
  confirmSubscription,
  resubscribeSubscriber,
  subscribe,
  subscriberCounts,
  subscribersCsv,
  unsubscribeSubscriber,
} from "../../services/subscribers/subscriptions.ts";

const tags = ["subscriptions"];

/** Readers subscribed by e-mail, without an account: subscribing, confirming, leaving. */
export const subscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post("/subscriptions", {
    schema: {
      tags,
      summary:
        "Subscribe an e-mail address to an author's new posts (no account): a confirmation link is mailed, and nothing else until it is opened",
      body: subscribeSchema,
      response: { 202: subscribeResultSchema },
    },
    preHandler: [
      limitBy(app, "subscriptions", byAddress),
      // By the mailbox: `ann+1@x.org`, `Ann+2@x.org` are ann@x.org's inbox all the same.
      limitBy(app, "subscriptionAddress", (request) => subscriberLimitKey((request.body as { email: string }).email)),
    ],
    handler: async (request, reply) => reply.code(202).send(await subscribe(request.deps, request.body)),
  });

  app.get("/subscriptions/confirm/:token", {
    schema: {
      tags,
      summary: "Confirm a subscription with the link its mail carries (opening it again says so again)",
      params: confirmParamsSchema,
      response: { 200: confirmResultSchema },
    },
    preHandler: limitBy(app, "unsubscribes", byAddress),
    handler: async (request) => confirmSubscription(request.deps, request.params.token),
  });

  app.post("/subscriptions/unsubscribe", {
    schema: {
      tags,
      summary: "Stop a subscriber's mail with the link every mail carries (no login: the link's token proves it)",
      body: subscriptionLinkSchema,
      response: { 200: subscriptionStateSchema },
    },
    preHandler: limitBy(app, "unsubscribes", byAddress),
    handler: async (request) => unsubscribeSubscriber(request.deps, request.body),
  });

  app.post("/subscriptions/resubscribe", {
    schema: {
      tags,
      summary: "Undo it with the same link",
      body: subscriptionLinkSchema,
      response: { 200: subscriptionStateSchema },
    },
    preHandler: limitBy(app, "unsubscribes", byAddress),
    handler: async (request) => resubscribeSubscriber(request.deps, request.body),
  });

  app.get("/users/subscribers/:id", {
    config: { scope: "subscribers:read" },
    schema: {
      tags,
      summary:
        "How many addresses are subscribed to an author by e-mail, and how many wait for confirmation (that author or an admin)",
      params: userIdParamsSchema,
      response: { 200: subscriberCountsSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "stats", byUser)],
    handler: async (request) => subscriberCounts(request.deps, currentUser(request), request.params.id),
  });

  app.get("/users/subscribers/:id.csv", {
    config: { scope: "subscribers:read" },
    schema: {
      tags,
      summary: "An author's confirmed e-mail subscribers as CSV (that author or an admin)",
      params: userIdParamsSchema,
      produces: ["text/csv"],
    },
    preHandler: [app.requireUser, limitBy(app, "stats", byUser)],
    handler: async (request, reply) =>
      sendCsv(reply, "subscribers", await subscribersCsv(request.deps, currentUser(request), request.params.id)),
  });
};

/** RFC 8058 one-click unsubscribe for subscribers; GET on the same address serves the app's page for it. */
export const oneClickSubscriptionRoute: FastifyPluginAsync = async (app) => {
  acceptOneClickForm(app);
  app.post("/subscriptions/unsubscribe/:id/:token", {
    schema: { hide: true },
    preHandler: limitBy(app, "unsubscribes", byAddress),
    handler: async (request, reply) => {
      const parsed = subscriptionLinkSchema.safeParse(request.params);
      if (!parsed.success)
        return reply.code(400).type("text/plain; charset=utf-8").send("This unsubscribe link is not valid.");
      const result = await unsubscribeSubscriber(request.deps, parsed.data);
      return reply.type("text/plain; charset=utf-8").send(`Unsubscribed from ${result.authorName}'s posts.`);
    },
  });
};
