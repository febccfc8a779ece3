import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  actionInputSchema,
  actionResultSchema,
  filterTermsInputSchema,
  filterTermsSchema,
  logEntrySchema,
  logExportSchema,
  queueItemSchema,
  queueQuerySchema,
  reportInputSchema,
  reportSchema,
  rulesInputSchema,
  rulesSchema,
} from "#shared/schemas/moderation.ts";
import { pageOf, pageQuerySchema } from "#shared/schemas/pagination.ts";
import { currentUser } from "../../plugins/auth.ts";
import { security } from "../../plugins/docs.ts";
import { byAddress, byUser, limitBy } from "../../plugins/rate-limits.ts";
import { act } from "../../services/moderation/actions.ts";
import { listTerms, replaceTerms } from "../../services/moderation/filter.ts";
import { exportLog, listLog } from "../../services/moderation/log.ts";
import { listQueue } from "../../services/moderation/queue.ts";
import { fileReport, myReports } from "../../services/moderation/reports.ts";
import { listRules, replaceRules } from "../../services/moderation/rules.ts";

const tags = ["moderation"];
const logQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.coerce.number().int().min(1).optional(),
});

/** The site's rules, readers' reports, the moderators' queue and actions, and the public moderation log. */
export const moderationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/rules", {
    schema: { tags, summary: "The site's rules, in order", response: { 200: rulesSchema } },
    handler: async () => ({ rules: await listRules(app.deps) }),
  });

  app.put("/rules", {
    schema: {
      tags,
      security,
      summary: "Replace the site's rules (an existing rule is kept by its id)",
      body: rulesInputSchema,
      response: { 200: rulesSchema },
    },
    preHandler: app.requirePermission("manage-rules"),
    handler: async (request) => ({ rules: await replaceRules(app.deps, request.body) }),
  });

  app.post("/reports", {
    schema: {
      tags,
      security,
      summary: "Report a post, a comment, a profile or a reply from the fediverse under a rule",
      body: reportInputSchema,
      response: { 201: reportSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "reports", byUser)],
    handler: async (request, reply) =>
      reply.code(201).send(await fileReport(app.deps, currentUser(request), request.body)),
  });

  app.get("/reports/mine", {
    schema: {
      tags,
      security,
      summary: "The caller's reports and their outcome, newest first (paged)",
      querystring: pageQuerySchema,
      response: { 200: pageOf(reportSchema) },
    },
    preHandler: app.requireUser,
    handler: async (request) => myReports(app.deps, currentUser(request), request.query),
  });

  app.get("/moderation/reports", {
    schema: {
      tags,
      security,
      summary: "The moderation queue: reports grouped per item, longest waiting first (paged)",
      querystring: queueQuerySchema,
      response: { 200: pageOf(queueItemSchema) },
    },
    preHandler: app.requirePermission("moderate"),
    handler: async (request) => listQueue(app.deps, request.query),
  });

  app.post("/moderation/actions", {
    schema: {
      tags,
      security,
      summary: "Act on an item under a rule: dismiss its reports, hide, remove or restore it, or warn its author",
      body: actionInputSchema,
      response: { 200: actionResultSchema },
    },
    preHandler: [app.requirePermission("moderate"), limitBy(app, "moderation", byUser)],
    handler: async (request) => act(app.deps, currentUser(request), request.body),
  });

  app.get("/moderation/terms", {
    schema: {
      tags,
      security,
      summary: "The site's own terms for the filter of new text, each held for review or refused",
      response: { 200: filterTermsSchema },
    },
    preHandler: app.requirePermission("manage-rules"),
    handler: async () => listTerms(app.deps),
  });

  app.put("/moderation/terms", {
    schema: {
      tags,
      security,
      summary: "Replace the site's own filter terms (the maintained English list always applies, holding for review)",
      body: filterTermsInputSchema,
      response: { 200: filterTermsSchema },
    },
    preHandler: app.requirePermission("manage-rules"),
    handler: async (request) => replaceTerms(app.deps, request.body),
  });

  app.get("/moderation/log", {
    schema: {
      tags,
      summary: "The public moderation log, newest first (paged by `cursor`, an entry's number); no personal data",
      querystring: logQuerySchema,
      response: { 200: pageOf(logEntrySchema) },
    },
    preHandler: limitBy(app, "publicLog", byAddress),
    handler: async (request) => listLog(app.db, { limit: request.query.limit, before: request.query.cursor }),
  });

  app.get("/moderation/log/export", {
    schema: {
      tags,
      summary:
        "The whole log, oldest first, with each day's signed head and the key to check them (`npm run verify-log`)",
      response: { 200: logExportSchema },
    },
    preHandler: limitBy(app, "publicLog", byAddress),
    handler: async () => exportLog(app.db),
  });
};
