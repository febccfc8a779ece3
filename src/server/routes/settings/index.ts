import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { FEATURED_FEE_WEI } from "#shared/constants.ts";
import { siteSettingsSchema, systemStatusSchema } from "#shared/schemas/settings.ts";
import { readSettings, updateSettings } from "../../services/settings.ts";

const tags = ["settings"];

export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/", {
    schema: { tags, summary: "The site's name and description", response: { 200: siteSettingsSchema } },
    handler: async (request) => readSettings(request.deps),
  });

  app.put("/", {
    config: { scope: "admin" },
    schema: {
      tags,
      summary: "Change the site's name and description",
      body: siteSettingsSchema,
      response: { 200: siteSettingsSchema },
    },
    preHandler: app.requireAdmin,
    handler: async (request) => {
      return updateSettings(request.deps, request.body);
    },
  });

  app.get("/status", {
    config: { scope: "admin" },
    schema: {
      tags,
      summary: "Database, chain, fee and mail status for admins",
      response: { 200: systemStatusSchema },
    },
    preHandler: app.requireAdmin,
    handler: async () => ({
      database: app.database.kind,
      chain: { id: app.config.chain.id, name: app.config.chain.name, rpcUrl: app.config.publicRpcUrl },
      feeRecipient: app.config.feeRecipient,
      feeWei: FEATURED_FEE_WEI.toString(),
      minConfirmations: app.config.minConfirmations,
      mail: {
        transport: app.mailer.kind,
        ...(await app.mailer.counts()),
      },
    }),
  });
};
