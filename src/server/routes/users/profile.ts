import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { siweProofSchema } from "../../../shared/schemas/siwe.ts";
import {
  followResultSchema,
  followSchema,
  privateUserSchema,
  profileSchema,
  publicUserSchema,
  unfollowSchema,
  updateProfileSchema,
  userIdParamsSchema,
} from "../../../shared/schemas/users.ts";
import { HttpError } from "../../http-error.ts";
import { currentUser } from "../../plugins/auth.ts";
import { security } from "../../plugins/docs.ts";
import { byAddress, byUser, limitBy } from "../../plugins/rate-limits.ts";
import { findUser } from "../../services/users/accounts.ts";
import * as profiles from "../../services/users/profiles.ts";
import { toPublicUser } from "../../services/users/user-fields.ts";
import { linkWallet } from "../../services/users/wallets.ts";

const tags = ["users"];

export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/profile/:id", {
    schema: {
      tags,
      security,
      summary: "A profile with counts, viewers and posts",
      params: userIdParamsSchema,
      response: { 200: profileSchema },
    },
    preHandler: app.requireUser,
    handler: async (request) => profiles.getProfile(app, currentUser(request), request.params.id),
  });

  app.get("/:id", {
    schema: {
      tags,
      summary: "A user's public details",
      params: userIdParamsSchema,
      response: { 200: publicUserSchema },
    },
    handler: async (request) => toPublicUser(await findUser(app, request.params.id)),
  });

  app.put("/", {
    schema: {
      tags,
      security,
      summary: "Update the caller's own profile",
      body: updateProfileSchema,
      response: { 200: privateUserSchema },
    },
    preHandler: app.requireUser,
    handler: async (request) => profiles.updateProfile(app, currentUser(request), request.body),
  });

  app.put("/follow", {
    schema: {
      tags,
      security,
      summary: "Follow a user (idempotent)",
      body: followSchema,
      response: { 200: followResultSchema },
    },
    preHandler: app.requireUser,
    handler: async (request) => profiles.setFollowing(app, currentUser(request), request.body.followId, true),
  });

  app.put("/unfollow", {
    schema: {
      tags,
      security,
      summary: "Unfollow a user (idempotent)",
      body: unfollowSchema,
      response: { 200: followResultSchema },
    },
    preHandler: app.requireUser,
    handler: async (request) => profiles.setFollowing(app, currentUser(request), request.body.unFollowId, false),
  });

  app.put("/profilephoto-upload", {
    schema: {
      tags,
      security,
      summary: "Upload a profile photo (multipart field `image`)",
      consumes: ["multipart/form-data"],
      response: { 200: privateUserSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "uploads", byUser)],
    handler: async (request) => {
      const file = request.isMultipart() ? await request.file() : undefined;
      if (file?.fieldname !== "image") throw new HttpError(400, "Image is required");
      const data = await file.toBuffer().catch((error) => {
        if (error?.statusCode === 413) throw new HttpError(413, "The image must be at most 5 MB");
        throw error;
      });
      return profiles.replacePhoto(app, currentUser(request), data);
    },
  });

  app.post("/wallet", {
    schema: {
      tags,
      security,
      summary: "Link and verify the caller's wallet with a SIWE signature",
      body: siweProofSchema,
      response: { 200: privateUserSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "siwe", byAddress)],
    handler: async (request) => linkWallet(app, currentUser(request).id, request.body),
  });
};
