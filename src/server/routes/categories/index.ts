import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { categoryIdParamsSchema, categoryInputSchema, categorySchema } from "#shared/schemas/categories.ts";
import { pageOf, pageQuerySchema } from "#shared/schemas/pagination.ts";
import { currentUser } from "../../plugins/auth.ts";
import { sendCached } from "../../plugins/read-cache.ts";
import * as categories from "../../services/content/categories.ts";

const tags = ["categories"];

/** Reading is public (the posts sidebar and the Create Blog dropdown); writing is for admins. */
export const categoryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/", {
    schema: {
      tags,
      summary: "Categories, newest first (paged)",
      querystring: pageQuerySchema,
      response: { 200: pageOf(categorySchema) },
    },
    preHandler: app.identifyUser,
    handler: async (request, reply) => {
      // Admins also see creators' e-mails; everyone else gets the cached page.
      if (request.user?.isAdmin) return categories.listCategories(request.deps, request.user, request.query);
      return sendCached(request, reply, await app.reads.categoriesPage(request.query));
    },
  });

  app.get("/:id", {
    schema: { tags, summary: "One category", params: categoryIdParamsSchema, response: { 200: categorySchema } },
    preHandler: app.identifyUser,
    handler: async (request) => categories.getCategory(request.deps, request.user, request.params.id),
  });

  app.post("/", {
    config: { scope: "admin" },
    schema: {
      tags,
      summary: "Create a category",
      body: categoryInputSchema,
      response: { 201: categorySchema },
    },
    preHandler: app.requireAdmin,
    handler: async (request, reply) =>
      reply.code(201).send(await categories.createCategory(request.deps, currentUser(request), request.body.title)),
  });

  app.put("/:id", {
    config: { scope: "admin" },
    schema: {
      tags,
      summary: "Rename a category",
      params: categoryIdParamsSchema,
      body: categoryInputSchema,
      response: { 200: categorySchema },
    },
    preHandler: app.requireAdmin,
    handler: async (request) =>
      categories.renameCategory(request.deps, currentUser(request), request.params.id, request.body.title),
  });

  app.delete("/:id", {
    config: { scope: "admin" },
    schema: {
      tags,
      summary: "Delete a category no post uses",
      params: categoryIdParamsSchema,
      response: { 200: categorySchema },
    },
    preHandler: app.requireAdmin,
    handler: async (request) => categories.deleteCategory(request.deps, currentUser(request), request.params.id),
  });
};
