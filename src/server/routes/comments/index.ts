import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  commentIdParamsSchema,
  commentInputSchema,
  commentSchema,
  commentSettingsSchema,
  commentUpdateSchema,
} from "#shared/schemas/comments.ts";
import { pageOf } from "#shared/schemas/pagination.ts";
import { currentUser } from "../../plugins/auth.ts";
import { byUser, limitBy } from "../../plugins/rate-limits.ts";
import * as comments from "../../services/content/comments.ts";

const tags = ["comments"];
export const commentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post("/", {
    config: { scope: "comments:write" },
    schema: {
      tags,
      summary: "Comment on a post",
      body: commentInputSchema,
      response: { 201: commentSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "comments", byUser)],
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(
          await comments.createComment(
            request.deps,
            currentUser(request),
            request.body.postId,
            request.body.description,
          ),
        ),
  });

  app.get("/:id", {
    config: { scope: "comments:write" },
    schema: { tags, summary: "One comment", params: commentIdParamsSchema, response: { 200: commentSchema } },
    preHandler: app.requireUser,
    handler: async (request) => comments.getComment(request.deps, request.params.id, currentUser(request).id),
  });

  app.put("/:id", {
    config: { scope: "comments:write" },
    schema: {
      tags,
      summary: "Edit one's own comment",
      params: commentIdParamsSchema,
      body: commentUpdateSchema,
      response: { 200: commentSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "comments", byUser)],
    handler: async (request) =>
      comments.updateComment(request.deps, currentUser(request), request.params.id, request.body.description),
  });

  app.delete("/:id", {
    config: { scope: "comments:write" },
    schema: {
      tags,
      summary: "Delete a comment (its author or an admin)",
      params: commentIdParamsSchema,
      response: { 200: commentSchema },
    },
    preHandler: app.requireUser,
    handler: async (request) => comments.deleteComment(request.deps, currentUser(request), request.params.id),
  });

  app.get("/settings", {
    config: { scope: "comments:write" },
    schema: {
      tags,
      summary: "The caller's comment settings: whether first-time commenters wait for approval",
      response: { 200: commentSettingsSchema },
    },
    preHandler: app.requireUser,
    handler: async (request) => comments.commentSettings(request.deps, currentUser(request)),
  });

  app.put("/settings", {
    config: { scope: "comments:write" },
    schema: {
      tags,
      summary: "Hold (or stop holding) comments from first-time commenters on the caller's posts",
      body: commentSettingsSchema,
      response: { 200: commentSettingsSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "accountChanges", byUser)],
    handler: async (request) => comments.setCommentSettings(request.deps, currentUser(request), request.body),
  });

  // A query, not a path segment: `/waiting/{postId}` and `/{id}/approve` would read as one path to a client.
  app.get("/waiting", {
    config: { scope: "comments:write" },
    schema: {
      tags,
      summary: "First-time commenters' comments on the caller's post, waiting for the caller to approve them",
      querystring: z.object({ postId: z.uuid("Invalid post id") }),
      response: { 200: pageOf(commentSchema) },
    },
    preHandler: app.requireUser,
    handler: async (request) => comments.listWaitingComments(request.deps, currentUser(request), request.query.postId),
  });

  for (const [path, approve] of [
    ["approve", true],
    ["decline", false],
  ] as const) {
    app.post(`/:id/${path}`, {
      config: { scope: "comments:write" },
      schema: {
        tags,
        summary: approve
          ? "Let a first-time commenter's comment on the caller's post through"
          : "Decline (delete) a first-time commenter's comment on the caller's post",
        params: commentIdParamsSchema,
        response: { 200: z.object({ approved: z.boolean() }) },
      },
      preHandler: [app.requireUser, limitBy(app, "comments", byUser)],
      handler: async (request) =>
        comments.decideWaitingComment(request.deps, currentUser(request), request.params.id, approve),
    });
  }
};
