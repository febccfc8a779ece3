import fs from "node:fs";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  closeAccountSchema,
  closingStateSchema,
  dataExportSchema,
  downloadParamsSchema,
  exportIdParamsSchema,
} from "#shared/schemas/leaving.ts";
import { currentUser } from "../../plugins/auth.ts";
import { byAddress, byUser, limitBy } from "../../plugins/rate-limits.ts";
import { keepAccount, requestClosing } from "../../services/leaving/closing.ts";
import { claimDownload, exportState, latestExport, requestExport } from "../../services/leaving/exports.ts";

const tags = ["leaving"];

/** Closing an account (and changing one's mind). */
export const leavingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post("/close", {
    schema: {
      tags,
      summary:
        "Close the signed-in account, with its password: every session ends, and it is erased in 14 days unless its owner signs in before",
      body: closeAccountSchema,
      response: { 202: closingStateSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "loginAccount", (request) => currentUser(request).email)],
    handler: async (request, reply) =>
      reply.code(202).send(await requestClosing(request.deps, currentUser(request), request.body)),
  });

  app.delete("/close", {
    schema: {
      tags,
      summary: "Keep the account after all (signing in does the same)",
      response: { 200: closingStateSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "accountChanges", byUser)],
    handler: async (request) => keepAccount(request.deps, currentUser(request)),
  });
};

/** "Download my data": ask for an archive, follow it, and the mailed link that downloads it once. */
export const exportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post("/exports", {
    schema: {
      tags,
      summary:
        "Ask for an archive of the signed-in user's data (posts as HTML and Markdown with images, Ghost JSON, comments, followers, subscribers, payments, profile); its link is mailed",
      response: { 202: dataExportSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "accountChanges", byUser)],
    handler: async (request, reply) => {
      const state = await requestExport(request.deps, currentUser(request));
      app.exports.wake();
      return reply.code(202).send(state);
    },
  });

  app.get("/exports/latest", {
    schema: {
      tags,
      summary: "The signed-in user's latest archive, if any",
      response: { 200: z.object({ export: z.nullable(dataExportSchema) }) },
    },
    preHandler: app.requireUser,
    handler: async (request) => ({ export: await latestExport(request.deps, currentUser(request)) }),
  });

  app.get("/exports/:id", {
    schema: {
      tags,
      summary: "Where an archive stands (its owner)",
      params: exportIdParamsSchema,
      response: { 200: dataExportSchema },
    },
    preHandler: app.requireUser,
    handler: async (request) => exportState(request.deps, currentUser(request), request.params.id),
  });

  app.get("/exports/:id/download/:token", {
    schema: {
      tags,
      summary: "Download an archive with the mailed link (no login: the token is the proof; it works once, for 7 days)",
      params: downloadParamsSchema,
      produces: ["application/zip"],
    },
    preHandler: limitBy(app, "unsubscribes", byAddress),
    handler: async (request, reply) => {
      const file = await claimDownload(request.deps, request.params.id, request.params.token);
      const stream = fs.createReadStream(file);
      // Sent once: the file goes as soon as it has been read out.
      stream.on("close", () => fs.rm(file, { force: true }, () => {}));
      return reply
        .type("application/zip")
        .header("content-disposition", 'attachment; filename="penchain-data.zip"')
        .header("cache-control", "private, no-store")
        .header("content-length", fs.statSync(file).size)
        .send(stream);
    },
  });
};
