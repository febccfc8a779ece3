import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  commentIdParamsSchema,
  commentInputSchema,
  commentSchema,
  commentUpdateSchema,
} from "#shared/schemas/comments.ts";
import { currentUser } from "../../plugins/auth.ts";
import { security } from "../../plugins/docs.ts";
import { byUser, limitBy } from "../../plugins/rate-limits.ts";
import * as comments from "../../services/content/comments.ts";

const tags = ["comments"];
export const commentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post("/", {
    schema: {
      tags,
      security,
      summary: "Comment on a post",
      body: commentInputSchema,
      response: { 201: commentSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "comments", byUser)],
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(
          await comments.createComment(app.deps, currentUser(request), request.body.postId, request.body.description),
        ),
  });

  app.get("/:id", {
    schema: { tags, security, summary: "One comment", params: commentIdParamsSchema, response: { 200: commentSchema } },
    preHandler: app.requireUser,
    handler: async (request) => comments.getComment(app.deps, request.params.id, currentUser(request).id),
  });

  app.put("/:id", {
    schema: {
      tags,
      security,
      summary: "Edit one's own comment",
      params: commentIdParamsSchema,
      body: commentUpdateSchema,
      response: { 200: commentSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "comments", byUser)],
    handler: async (request) =>
      comments.updateComment(app.deps, currentUser(request), request.params.id, request.body.description),
  });

  app.delete("/:id", {
    schema: {
      tags,
      security,
      summary: "Delete a comment (its author or an admin)",
      params: commentIdParamsSchema,
      response: { 200: commentSchema },
    },
    preHandler: app.requireUser,
    handler: async (request) => comments.deleteComment(app.deps, currentUser(request), request.params.id),
  });
};
