import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { pageOf, pageQuerySchema } from "#shared/schemas/pagination.ts";
import {
  paymentListQuerySchema,
  paymentSchema,
  readerTipInputSchema,
  rewardSchema,
  tipInputSchema,
  tipPageSchema,
} from "#shared/schemas/payments.ts";
import { postIdParamsSchema } from "#shared/schemas/posts.ts";
import { tipTotalsSchema } from "#shared/schemas/tips.ts";
import { rewardResultSchema, userIdParamsSchema } from "#shared/schemas/users.ts";
import { currentUser } from "../../plugins/auth.ts";
import { byUser, limitBy } from "../../plugins/rate-limits.ts";
import { listPayments } from "../../services/payments/payments.ts";
import { listRewards, recordTip } from "../../services/payments/rewards.ts";
import { listPostTips, tipAuthor } from "../../services/payments/tips.ts";

const tags = ["admin"];

export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/payments", {
    config: { scope: "admin" },
    schema: {
      tags,
      summary: "Verified payments (featured fees and tips), newest first",
      querystring: paymentListQuerySchema,
      response: { 200: pageOf(paymentSchema) },
    },
    preHandler: app.requireAdmin,
    handler: async (request) => listPayments(request.deps, request.query),
  });

  app.get("/users/rewards/:id", {
    config: { scope: "admin" },
    schema: {
      tags,
      summary: "Who rewarded a user, newest first, with each admin's ETH tip",
      params: userIdParamsSchema,
      querystring: pageQuerySchema,
      response: { 200: pageOf(rewardSchema) },
    },
    preHandler: app.requireAdmin,
    handler: async (request) => listRewards(request.deps, request.params.id, request.query),
  });

  app.post("/posts/:id/tips", {
    schema: {
      tags: ["tips"],
      summary: "Record a reader's ETH tip to the post's author, verified on-chain; answers the post's tips",
      params: postIdParamsSchema,
      body: readerTipInputSchema,
      response: { 200: tipTotalsSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "paymentChecks", byUser)],
    // The post's page shows its tips.
    handler: async (request) =>
      tipAuthor(request.deps, currentUser(request), { postId: request.params.id }, request.body.txHash),
  });

  app.get("/posts/:id/tips", {
    schema: {
      tags: ["tips"],
      summary: "A post's tips, newest first (paged), with how many count and their total",
      params: postIdParamsSchema,
      querystring: pageQuerySchema,
      response: { 200: tipPageSchema },
    },
    handler: async (request) => listPostTips(request.deps, request.params.id, request.query),
  });

  app.post("/users/tips/:id", {
    schema: {
      tags: ["tips"],
      summary: "Record a reader's ETH tip to an author from their profile, verified on-chain; answers their tips",
      params: userIdParamsSchema,
      body: readerTipInputSchema,
      response: { 200: tipTotalsSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "paymentChecks", byUser)],
    handler: async (request) =>
      tipAuthor(request.deps, currentUser(request), { userId: request.params.id }, request.body.txHash),
  });

  app.post("/users/tip/:id", {
    config: { scope: "admin" },
    schema: {
      tags,
      summary: "Record an admin's ETH tip to the user's verified wallet as a reward",
      params: userIdParamsSchema,
      body: tipInputSchema,
      response: { 200: rewardResultSchema },
    },
    preHandler: [app.requireAdmin, limitBy(app, "paymentChecks", byUser)],
    handler: async (request) =>
      recordTip(request.deps, currentUser(request), request.params.id, request.body.transectionHash),
  });
};
