import type { FastifyPluginAsync } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { unreadCountSchema } from "#shared/schemas/live.ts";
import {
  markReadSchema,
  notificationSchema,
  notificationSettingsSchema,
  resubscribeSchema,
  unsubscribeResultSchema,
  unsubscribeSchema,
  updateNotificationSettingsSchema,
} from "#shared/schemas/notifications.ts";
import { pageOf, pageQuerySchema } from "#shared/schemas/pagination.ts";
import { currentUser } from "../../plugins/auth.ts";
import { acceptOneClickForm } from "../../plugins/downloads.ts";
import { byAddress, byUser, limitBy } from "../../plugins/rate-limits.ts";
import type { TokenClaims } from "../../services/core/session-tokens.ts";
import { resubscribe, unsubscribe } from "../../services/notifications/unsubscribe.ts";
import * as notifications from "../../services/notifications/user-notifications.ts";

const tags = ["notifications"];
// What these change is a user's own: nothing anonymous readers are served from memory.

export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/", {
    schema: {
      tags,
      summary: "The signed-in user's notifications, newest first (paged)",
      querystring: pageQuerySchema,
      response: { 200: pageOf(notificationSchema) },
    },
    preHandler: app.requireUser,
    handler: async (request) => notifications.listNotifications(request.deps, currentUser(request), request.query),
  });

  app.get("/unread-count", {
    schema: { tags, summary: "How many notifications are unread", response: { 200: unreadCountSchema } },
    preHandler: app.requireUser,
    handler: async (request) => notifications.unreadCount(request.deps, currentUser(request).id),
  });

  // The unread count as Server-Sent Events (`event: unread`, `data: {"count":n}`), at once and on every change. Not
  // in the OpenAPI document: a stream that never ends is no request to try out from its page.
  app.get("/stream", {
    schema: { hide: true },
    preHandler: [app.requireUser, limitBy(app, "streams", byUser)],
    handler: async (request, reply) => {
      reply.hijack();
      // A live stream is quiet for long spells: its socket may not time out like a request's.
      request.raw.socket.setTimeout(0);
      const { sessionId, version } = request.session as TokenClaims;
      await app.notificationHub.open({ userId: currentUser(request).id, sessionId, version }, reply.raw);
    },
  });

  app.put("/read", {
    schema: {
      tags,
      summary: "Mark notifications read: those in `ids`, or all; answers the unread count",
      body: markReadSchema,
      response: { 200: unreadCountSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "notificationWrites", byUser)],
    handler: async (request) => notifications.markRead(request.deps, currentUser(request), request.body.ids),
  });

  app.get("/settings", {
    schema: {
      tags,
      summary: "Per kind: in the app only, e-mail at once, or a daily digest",
      response: { 200: notificationSettingsSchema },
    },
    preHandler: app.requireUser,
    handler: async (request) => notifications.getSettings(request.deps, currentUser(request)),
  });

  app.put("/settings", {
    schema: {
      tags,
      summary: "Change how some kinds of notification reach the user",
      body: updateNotificationSettingsSchema,
      response: { 200: notificationSettingsSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "notificationWrites", byUser)],
    handler: async (request) => notifications.updateSettings(request.deps, currentUser(request), request.body.settings),
  });

  app.post("/unsubscribe", {
    schema: {
      tags,
      summary: "Turn off the mail an unsubscribe link names (no login: the link's token proves it)",
      body: unsubscribeSchema,
      response: { 200: unsubscribeResultSchema },
    },
    preHandler: limitBy(app, "unsubscribes", byAddress),
    handler: async (request) => unsubscribe(request.deps, request.body),
  });

  app.post("/resubscribe", {
    schema: {
      tags,
      summary: "Undo an unsubscribe link",
      body: resubscribeSchema,
      response: { 200: unsubscribeResultSchema },
    },
    preHandler: limitBy(app, "unsubscribes", byAddress),
    handler: async (request) => resubscribe(request.deps, request.body),
  });
};

/**
 * RFC 8058 one-click unsubscribe: mail clients POST `List-Unsubscribe=One-Click` to the link in a mail's
 * List-Unsubscribe header, which is also the page a reader opens from the mail's footer (GET serves the app there).
 */
export const oneClickUnsubscribeRoute: FastifyPluginAsync = async (app) => {
  acceptOneClickForm(app);
  app.post("/unsubscribe/:userId/:topic/:token", {
    schema: { hide: true },
    preHandler: limitBy(app, "unsubscribes", byAddress),
    handler: async (request, reply) => {
      const parsed = unsubscribeSchema.safeParse(request.params);
      if (!parsed.success)
        return reply.code(400).type("text/plain; charset=utf-8").send("This unsubscribe link is not valid.");
      const result = await unsubscribe(request.deps, parsed.data);
      return reply.type("text/plain; charset=utf-8").send(`Unsubscribed: ${result.label}.`);
    },
  });
};
