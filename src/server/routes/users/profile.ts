import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { photoUploadSchema } from "#shared/schemas/upload.ts";
import {
  followResultSchema,
  followSchema,
  privateUserSchema,
  profileSchema,
  publicUserSchema,
  unfollowSchema,
  updateProfileSchema,
  userIdParamsSchema,
} from "#shared/schemas/users.ts";
import { currentUser } from "../../plugins/auth.ts";
import { multipartBody } from "../../plugins/multipart.ts";
import { byUser, limitBy } from "../../plugins/rate-limits.ts";
import { findUser } from "../../services/core/find-user.ts";
import { toPublicUser } from "../../services/core/user-fields.ts";
import * as profiles from "../../services/users/profiles.ts";

const tags = ["users"];
/** A user's name and photo show beside their posts and comments. */

export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/profile/:id", {
    schema: {
      tags,
      summary: "A profile with counts, viewers and posts",
      params: userIdParamsSchema,
      response: { 200: profileSchema },
    },
    preHandler: app.requireUser,
    handler: async (request) => profiles.getProfile(request.deps, currentUser(request), request.params.id),
  });

  app.get("/:id", {
    schema: {
      tags,
      summary: "A user's public details",
      params: userIdParamsSchema,
      response: { 200: publicUserSchema },
    },
    handler: async (request) => toPublicUser(await findUser(request.deps, request.params.id)),
  });

  app.put("/", {
    schema: {
      tags,
      summary: "Update the caller's own profile",
      body: updateProfileSchema,
      response: { 200: privateUserSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "accountChanges", byUser)],
    handler: async (request) => profiles.updateProfile(request.deps, currentUser(request), request.body),
  });

  app.get("/follow/:id", {
    schema: {
      tags,
      summary: "Whether the caller follows a user, and their follower count",
      params: userIdParamsSchema,
      response: { 200: followResultSchema },
    },
    preHandler: app.requireUser,
    handler: async (request) => profiles.followState(request.deps, currentUser(request), request.params.id),
  });

  // The spec names the user `followId` in one and `unFollowId` in the other (docs/specification.md §Calls).
  const follows = [
    { path: "/follow", summary: "Follow a user (idempotent)", body: followSchema, following: true },
    { path: "/unfollow", summary: "Unfollow a user (idempotent)", body: unfollowSchema, following: false },
  ] as const;
  for (const { path, summary, body, following } of follows) {
    app.put(path, {
      schema: { tags, summary, body, response: { 200: followResultSchema } },
      preHandler: [app.requireUser, limitBy(app, "follows", byUser)],
      handler: async (request) => {
        const target = "followId" in request.body ? request.body.followId : request.body.unFollowId;
        return profiles.setFollowing(request.deps, currentUser(request), target, following);
      },
    });
  }

  app.put("/profilephoto-upload", {
    schema: {
      tags,
      summary: "Upload a profile photo (multipart field `image`)",
      consumes: ["multipart/form-data"],
      body: photoUploadSchema,
      response: { 200: privateUserSchema },
    },
    onRequest: [app.requireUser, limitBy(app, "uploads", byUser)],
    preValidation: multipartBody,
    handler: async (request) => profiles.replacePhoto(request.deps, currentUser(request), request.body.image),
  });
};
