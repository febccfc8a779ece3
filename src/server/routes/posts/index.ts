import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { commentSchema } from "../../../shared/schemas/comments.ts";
import { pageOf, pageQuerySchema } from "../../../shared/schemas/pagination.ts";
import {
  postDetailSchema,
  postIdParamsSchema,
  postListQuerySchema,
  postSchema,
  postUpdateSchema,
  reactionInputSchema,
} from "../../../shared/schemas/posts.ts";
import { currentUser } from "../../plugins/auth.ts";
import { security } from "../../plugins/docs.ts";
import { byUser, limitBy } from "../../plugins/rate-limits.ts";
import { listComments } from "../../services/content/comments.ts";
import { listPosts } from "../../services/content/post-queries.ts";
import * as posts from "../../services/content/posts.ts";
import { readPostForm } from "./read-form.ts";

const tags = ["posts"];

export const postRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/", {
    schema: {
      tags,
      summary: "Posts: featured first, then newest (paged; filter by category title or author)",
      querystring: postListQuerySchema,
      response: { 200: pageOf(postSchema) },
    },
    preHandler: app.identifyUser,
    handler: async (request) => listPosts(app, request.user?.id ?? null, request.query),
  });

  app.get("/:id", {
    schema: {
      tags,
      summary: "A post with its first page of comments; counts the view",
      params: postIdParamsSchema,
      response: { 200: postDetailSchema },
    },
    preHandler: app.identifyUser,
    handler: async (request) => posts.getPostDetail(app, request.params.id, posts.viewerOf(request)),
  });

  app.get("/:id/comments", {
    schema: {
      tags,
      summary: "A post's comments, newest first (paged)",
      params: postIdParamsSchema,
      querystring: pageQuerySchema,
      response: { 200: pageOf(commentSchema) },
    },
    handler: async (request) => {
      await posts.getPost(app, request.params.id, null);
      return listComments(app, request.params.id, request.query);
    },
  });

  app.post("/", {
    schema: {
      tags,
      security,
      summary:
        "Create a post (multipart: title, description, category, image, isFeatured, transectionHash when featured)",
      consumes: ["multipart/form-data", "application/json"],
      response: { 201: postSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "posts", byUser)],
    handler: async (request, reply) => {
      const form = await readPostForm(request);
      return reply.code(201).send(await posts.createPost(app, currentUser(request), form.fields, form.image));
    },
  });

  app.put("/likes", {
    schema: {
      tags,
      security,
      summary: "Like, or take the like back",
      body: reactionInputSchema,
      response: { 200: postSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "reactions", byUser)],
    handler: async (request) => posts.react(app, currentUser(request), request.body.postId, "like"),
  });

  app.put("/dislikes", {
    schema: {
      tags,
      security,
      summary: "Dislike, or take the dislike back",
      body: reactionInputSchema,
      response: { 200: postSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "reactions", byUser)],
    handler: async (request) => posts.react(app, currentUser(request), request.body.postId, "dislike"),
  });

  app.put("/:id", {
    schema: {
      tags,
      security,
      summary: "Edit the author's own post",
      params: postIdParamsSchema,
      body: postUpdateSchema,
      response: { 200: postSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "posts", byUser)],
    handler: async (request) => posts.updatePost(app, currentUser(request), request.params.id, request.body),
  });

  app.delete("/:id", {
    schema: {
      tags,
      security,
      summary: "Delete the author's own post with its comments",
      params: postIdParamsSchema,
      response: { 200: postSchema },
    },
    preHandler: app.requireUser,
    handler: async (request) => posts.deletePost(app, currentUser(request), request.params.id),
  });
};
