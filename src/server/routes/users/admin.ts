import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { pageOf, pageQuerySchema } from "#shared/schemas/pagination.ts";
import {
  adminUserListItemSchema,
  privateUserSchema,
  rewardResultSchema,
  roleInputSchema,
  userIdParamsSchema,
} from "#shared/schemas/users.ts";
import { currentUser } from "../../plugins/auth.ts";
import { toggleReward } from "../../services/payments/rewards.ts";
import * as admin from "../../services/users/admin.ts";

const tags = ["admin"];

export const adminUserRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/", {
    config: { scope: "admin" },
    schema: {
      tags,
      summary: "All users, newest first (paged)",
      querystring: pageQuerySchema,
      response: { 200: pageOf(adminUserListItemSchema) },
    },
    preHandler: app.requireAdmin,
    handler: async (request) => admin.listUsers(request.deps, currentUser(request), request.query),
  });

  for (const [path, summary, blocked] of [
    ["/block-user/:id", "Block a user and end their sessions", true],
    ["/unblock-user/:id", "Unblock a user", false],
  ] as const) {
    app.put(path, {
      config: { scope: "admin" },
      schema: { tags, summary, params: userIdParamsSchema, response: { 200: privateUserSchema } },
      preHandler: app.requireAdmin,
      handler: async (request) => admin.setBlocked(request.deps, currentUser(request), request.params.id, blocked),
    });
  }

  app.put("/role/:id", {
    config: { scope: "admin" },
    schema: {
      tags,
      summary: "Make a user a moderator, or take the role back",
      params: userIdParamsSchema,
      body: roleInputSchema,
      response: { 200: privateUserSchema },
    },
    preHandler: app.requirePermission("manage-roles"),
    handler: async (request) =>
      admin.setModerator(request.deps, currentUser(request), request.params.id, request.body.moderator),
  });

  app.put("/likes/:id", {
    config: { scope: "admin" },
    schema: {
      tags,
      summary: "Reward a user, or take the reward back",
      params: userIdParamsSchema,
      response: { 200: rewardResultSchema },
    },
    preHandler: app.requireAdmin,
    handler: async (request) => toggleReward(request.deps, currentUser(request), request.params.id),
  });
};
