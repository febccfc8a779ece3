import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { commentSchema } from "#shared/schemas/comments.ts";
import { pageOf, pageQuerySchema } from "#shared/schemas/pagination.ts";
import {
  createPostBodySchema,
  postDetailSchema,
  postIdParamsSchema,
  postListQuerySchema,
  postReadQuerySchema,
  postSchema,
  postUpdateSchema,
  reactionInputSchema,
} from "#shared/schemas/posts.ts";
import { HttpError } from "../../http-error.ts";
import { currentUser } from "../../plugins/auth.ts";
import { multipartBody } from "../../plugins/multipart.ts";
import { addressKey, byUser, limitBy } from "../../plugins/rate-limits.ts";
import { sendCached } from "../../plugins/read-cache.ts";
import * as posts from "../../services/content/post-writes.ts";
import * as reactions from "../../services/content/reactions.ts";
import { listFollowedPosts, listUnpublishedPosts } from "../../services/content/shown-posts.ts";

const tags = ["posts"];
const FOLLOWING_NEEDS_LOGIN = "Log in to see the posts of the authors you follow.";

/**
 * Who is reading, for view counts: a signed-in reader is themself; an anonymous one is their address (hashed before
 * it is stored). Not their browser's name: a client can send a new one with every request.
 */
export const viewerOf = (request: FastifyRequest) =>
  request.user ? { userId: request.user.id } : { address: addressKey(request), userId: null };

export const postRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/", {
    config: { scope: "posts:read" },
    schema: {
      tags,
      summary:
        "Published posts: featured first, then newest; with `q`, those matching it, most relevant first (paged; filter by category title or author)",
      querystring: postListQuerySchema,
      response: { 200: pageOf(postSchema) },
    },
    preHandler: app.identifyUser,
    handler: async (request, reply) => {
      // The Following feed is the reader's own: never cached, never anyone else's.
      if (request.query.following) {
        if (!request.user) throw new HttpError(401, FOLLOWING_NEEDS_LOGIN);
        return listFollowedPosts(request.deps, request.user.id, request.query);
      }
      const search = async () => {
        if (request.query.q !== undefined) await app.limiter.hit("search", addressKey(request));
      };
      return sendCached(request, reply, await app.reads.postsPageFor(request.query, request.user?.id ?? null, search));
    },
  });

  app.get("/drafts", {
    config: { scope: "posts:read" },
    schema: {
      tags,
      summary: "The signed-in author's drafts and scheduled posts, last edited first (paged)",
      querystring: pageQuerySchema,
      response: { 200: pageOf(postSchema) },
    },
    preHandler: app.requireUser,
    handler: async (request) => listUnpublishedPosts(request.deps, currentUser(request).id, request.query),
  });

  app.get("/:id", {
    config: { scope: "posts:read" },
    schema: {
      tags,
      summary:
        "A post with its first page of comments (a draft or scheduled post: its author only); counts the view (unless `counted=1`: the page already did)",
      params: postIdParamsSchema,
      querystring: postReadQuerySchema,
      response: { 200: postDetailSchema },
    },
    preHandler: app.identifyUser,
    handler: async (request, reply) => {
      const { id } = request.params;
      const answer = await app.reads.postFor(id, request.user?.id ?? null);
      if ("unpublished" in answer) return answer.unpublished;
      if (!request.query.counted) app.views.record({ postId: id, ...viewerOf(request) });
      return sendCached(request, reply, answer.entry);
    },
  });

  app.get("/:id/comments", {
    config: { scope: "posts:read" },
    schema: {
      tags,
      summary: "A post's comments, newest first (paged)",
      params: postIdParamsSchema,
      querystring: pageQuerySchema,
      response: { 200: pageOf(commentSchema) },
    },
    handler: async (request, reply) => {
      return sendCached(request, reply, await app.reads.commentsPage(request.params.id, request.query));
    },
  });

  app.post("/", {
    config: { scope: "posts:write" },
    schema: {
      tags,
      summary:
        "Create a post (multipart with an optional cover `image`, or JSON without one): published at once, or a `draft`, or `scheduled` at `publishAt`",
      consumes: ["multipart/form-data", "application/json"],
      body: createPostBodySchema,
      response: { 201: postSchema },
    },
    // Who may post, and how often, is settled before the upload is read.
    onRequest: [app.requireUser, limitBy(app, "posts", byUser)],
    preValidation: multipartBody,
    handler: async (request, reply) =>
      reply.code(201).send(await posts.createPost(request.deps, currentUser(request), request.body)),
  });

  for (const [kind, summary] of [
    ["like", "Like, or take the like back"],
    ["dislike", "Dislike, or take the dislike back"],
  ] as const) {
    app.put(`/${kind}s`, {
      schema: { tags, summary, body: reactionInputSchema, response: { 200: postSchema } },
      preHandler: [app.requireUser, limitBy(app, "reactions", byUser)],
      handler: async (request) => reactions.react(request.deps, currentUser(request), request.body.postId, kind),
    });
  }

  app.put("/:id", {
    config: { scope: "posts:write" },
    schema: {
      tags,
      summary: "Edit the author's own post; `status` publishes it, keeps it as a draft or schedules it",
      params: postIdParamsSchema,
      body: postUpdateSchema,
      response: { 200: postSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "posts", byUser)],
    handler: async (request) => posts.updatePost(request.deps, currentUser(request), request.params.id, request.body),
  });

  app.delete("/:id", {
    config: { scope: "posts:write" },
    schema: {
      tags,
      summary: "Delete the author's own post with its comments",
      params: postIdParamsSchema,
      response: { 200: postSchema },
    },
    preHandler: app.requireUser,
    handler: async (request) => posts.deletePost(request.deps, currentUser(request), request.params.id),
  });
};
