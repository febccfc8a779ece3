import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  createdWebhookSchema,
  webhookCreateSchema,
  webhookDeliveryListSchema,
  webhookDeliveryParamsSchema,
  webhookListSchema,
  webhookParamsSchema,
  webhookSchema,
  webhookUpdateSchema,
} from "#shared/schemas/webhooks.ts";
import { z } from "#shared/zod.ts";
import { currentUser } from "../../plugins/auth.ts";
import { byUser, limitBy } from "../../plugins/rate-limits.ts";
import {
  createWebhook,
  deleteWebhook,
  followsSite,
  getWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  testWebhook,
  updateWebhook,
} from "../../services/webhooks/endpoints.ts";

const tags = ["webhooks"];
const config = { scope: "webhooks:write" } as const;
const queuedSchema = z.object({ id: z.string() });

/** Endpoints that receive a user's (an admin's: the site's) events, signed (services/webhooks/). */
export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const writes = [app.requireUser, limitBy(app, "webhooks", byUser)];

  app.post("/webhooks", {
    config,
    schema: {
      tags,
      summary: "Create a webhook; its signing secret is in this answer only",
      body: webhookCreateSchema,
      response: { 201: createdWebhookSchema },
    },
    preHandler: writes,
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(
          await createWebhook(
            request.deps,
            currentUser(request),
            request.body,
            followsSite(currentUser(request), request.apiToken?.scopes ?? null),
          ),
        ),
  });

  app.get("/webhooks", {
    config,
    schema: { tags, summary: "The signed-in user's webhooks", response: { 200: webhookListSchema } },
    preHandler: app.requireUser,
    handler: async (request) => listWebhooks(request.deps, currentUser(request)),
  });

  app.get("/webhooks/:id", {
    config,
    schema: {
      tags,
      summary: "One of the signed-in user's webhooks",
      params: webhookParamsSchema,
      response: { 200: webhookSchema },
    },
    preHandler: app.requireUser,
    handler: async (request) => getWebhook(request.deps, currentUser(request), request.params.id),
  });

  app.patch("/webhooks/:id", {
    config,
    schema: {
      tags,
      summary: "Change a webhook's events or description, pause it or resume it",
      params: webhookParamsSchema,
      body: webhookUpdateSchema,
      response: { 200: webhookSchema },
    },
    preHandler: writes,
    handler: async (request) =>
      updateWebhook(
        request.deps,
        currentUser(request),
        request.params.id,
        request.body,
        followsSite(currentUser(request), request.apiToken?.scopes ?? null),
      ),
  });

  app.delete("/webhooks/:id", {
    config,
    schema: {
      tags,
      summary: "Delete a webhook and its deliveries",
      params: webhookParamsSchema,
      response: { 200: webhookSchema },
    },
    preHandler: writes,
    handler: async (request) => deleteWebhook(request.deps, currentUser(request), request.params.id),
  });

  app.get("/webhooks/:id/deliveries", {
    config,
    schema: {
      tags,
      summary: "A webhook's latest deliveries: event, attempts, status, answer code, duration",
      params: webhookParamsSchema,
      response: { 200: webhookDeliveryListSchema },
    },
    preHandler: app.requireUser,
    handler: async (request) => listDeliveries(request.deps, currentUser(request), request.params.id),
  });

  app.post("/webhooks/:id/deliveries/:deliveryId/redeliver", {
    config,
    schema: {
      tags,
      summary: "Send a delivery again, under its same webhook-id",
      params: webhookDeliveryParamsSchema,
      response: { 202: queuedSchema },
    },
    preHandler: writes,
    handler: async (request, reply) => {
      await redeliver(request.deps, currentUser(request), request.params.id, request.params.deliveryId);
      app.webhooks.wake();
      return reply.code(202).send({ id: request.params.deliveryId });
    },
  });

  app.post("/webhooks/:id/test", {
    config,
    schema: {
      tags,
      summary: "Send a webhook.test event to this webhook",
      params: webhookParamsSchema,
      response: { 202: queuedSchema },
    },
    preHandler: writes,
    handler: async (request, reply) => {
      const queued = await testWebhook(request.deps, currentUser(request), request.params.id);
      app.webhooks.wake();
      return reply.code(202).send(queued);
    },
  });
};
