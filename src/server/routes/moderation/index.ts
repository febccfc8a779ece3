import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  actionInputSchema,
  actionResultSchema,
  appealByLinkSchema,
  appealDecisionSchema,
  appealInputSchema,
  appealLinkSchema,
  appealsSchema,
  blocklistResultSchema,
  decisionSchema,
  decisionsSchema,
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
import { sendCsv } from "../../plugins/downloads.ts";
import { byAddress, byUser, limitBy } from "../../plugins/rate-limits.ts";
import { exportBlocklist, importBlocklist } from "../../services/federation/blocklists.ts";
import { act } from "../../services/moderation/actions.ts";
import {
  appeal,
  appealByLink,
  decideAppeal,
  decisionOfLink,
  myDecisions,
  waitingAppeals,
} from "../../services/moderation/appeals.ts";
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
    handler: async (request) => ({ rules: await listRules(request.deps) }),
  });

  app.put("/rules", {
    config: { scope: "admin" },
    schema: {
      tags,
      summary: "Replace the site's rules (an existing rule is kept by its id)",
      body: rulesInputSchema,
      response: { 200: rulesSchema },
    },
    preHandler: app.requirePermission("manage-rules"),
    handler: async (request) => ({ rules: await replaceRules(request.deps, request.body) }),
  });

  app.post("/reports", {
    schema: {
      tags,
      summary: "Report a post, a comment, a profile or a reply from the fediverse under a rule",
      body: reportInputSchema,
      response: { 201: reportSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "reports", byUser)],
    handler: async (request, reply) =>
      reply.code(201).send(await fileReport(request.deps, currentUser(request), request.body)),
  });

  app.get("/reports/mine", {
    schema: {
      tags,
      summary: "The caller's reports and their outcome, newest first (paged)",
      querystring: pageQuerySchema,
      response: { 200: pageOf(reportSchema) },
    },
    preHandler: app.requireUser,
    handler: async (request) => myReports(request.deps, currentUser(request), request.query),
  });

  app.get("/moderation/reports", {
    config: { scope: "moderation" },
    schema: {
      tags,
      summary: "The moderation queue: reports grouped per item, longest waiting first (paged)",
      querystring: queueQuerySchema,
      response: { 200: pageOf(queueItemSchema) },
    },
    preHandler: app.requirePermission("moderate"),
    handler: async (request) => listQueue(request.deps, request.query),
  });

  app.post("/moderation/actions", {
    config: { scope: "moderation" },
    schema: {
      tags,
      summary: "Act on an item under a rule: dismiss its reports, hide, remove or restore it, or warn its author",
      body: actionInputSchema,
      response: { 200: actionResultSchema },
    },
    preHandler: [app.requirePermission("moderate"), limitBy(app, "moderation", byUser)],
    handler: async (request) => act(request.deps, currentUser(request), request.body),
  });

  app.get("/moderation/terms", {
    config: { scope: "admin" },
    schema: {
      tags,
      summary: "The site's own terms for the filter of new text, each held for review or refused",
      response: { 200: filterTermsSchema },
    },
    preHandler: app.requirePermission("manage-rules"),
    handler: async (request) => listTerms(request.deps),
  });

  app.put("/moderation/terms", {
    config: { scope: "admin" },
    schema: {
      tags,
      summary: "Replace the site's own filter terms (the maintained English list always applies, holding for review)",
      body: filterTermsInputSchema,
      response: { 200: filterTermsSchema },
    },
    preHandler: app.requirePermission("manage-rules"),
    handler: async (request) => replaceTerms(request.deps, request.body),
  });

  app.get("/moderation/domain-blocks.csv", {
    config: { scope: "admin" },
    schema: {
      tags,
      summary: "The site's domain blocks as Mastodon's CSV (#domain,#severity,…), to share",
      produces: ["text/csv"],
    },
    preHandler: app.requireAdmin,
    handler: async (request, reply) => sendCsv(reply, "domain-blocks", await exportBlocklist(request.deps)),
  });

  // A shared block list arrives as CSV text: only here.
  app.addContentTypeParser(
    ["text/csv", "text/plain"],
    { parseAs: "string", bodyLimit: 1024 * 1024 },
    (_request, body, done) => done(null, body),
  );
  app.post("/moderation/domain-blocks", {
    config: { scope: "admin" },
    schema: {
      tags,
      summary:
        "Import a shared domain block list in Mastodon's CSV (suspend and silence rows; others skipped and named)",
      consumes: ["text/csv"],
      body: z.string().max(1024 * 1024),
      response: { 200: blocklistResultSchema },
    },
    preHandler: app.requireAdmin,
    handler: async (request) =>
      importBlocklist(request.deps, currentUser(request), request.body, new URL(app.config.publicUrl).hostname),
  });

  app.get("/moderation/mine", {
    schema: {
      tags,
      summary: "The moderators' decisions about the caller, newest first, with where each appeal stands",
      response: { 200: decisionsSchema },
    },
    preHandler: app.requireUser,
    handler: async (request) => myDecisions(request.deps, currentUser(request)),
  });

  app.post("/appeals", {
    schema: {
      tags,
      summary: "Appeal a decision about oneself: once, within 20 days, saying why",
      body: appealInputSchema,
      response: { 201: decisionSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "appeals", byUser)],
    handler: async (request, reply) =>
      reply.code(201).send(await appeal(request.deps, currentUser(request), request.body)),
  });

  app.get("/appeals/by-link/:actionId/:token", {
    schema: {
      tags,
      summary: "A decision reached by the link in its mail, for an account that cannot sign in (a suspended one)",
      params: appealLinkSchema,
      response: { 200: decisionSchema },
    },
    handler: async (request) => decisionOfLink(request.deps, request.params.actionId, request.params.token),
  });

  app.post("/appeals/by-link", {
    schema: {
      tags,
      summary: "Appeal a decision from the link in its mail, without signing in: once, within 20 days",
      body: appealByLinkSchema,
      response: { 201: decisionSchema },
    },
    preHandler: limitBy(app, "appeals", byAddress),
    handler: async (request, reply) => reply.code(201).send(await appealByLink(request.deps, request.body)),
  });

  app.get("/moderation/appeals", {
    config: { scope: "moderation" },
    schema: {
      tags,
      summary: "Appeals waiting for a moderator, oldest first",
      response: { 200: appealsSchema },
    },
    preHandler: app.requirePermission("moderate"),
    handler: async (request) => waitingAppeals(request.deps),
  });

  app.post("/moderation/appeals/:id", {
    config: { scope: "moderation" },
    schema: {
      tags,
      summary: "Decide an appeal (another moderator than the one who decided): uphold, or reverse and undo",
      params: z.object({ id: z.uuid("Invalid appeal") }),
      body: appealDecisionSchema,
      response: { 200: appealDecisionSchema },
    },
    preHandler: [app.requirePermission("moderate"), limitBy(app, "moderation", byUser)],
    handler: async (request) =>
      decideAppeal(request.deps, currentUser(request), request.params.id, request.body.outcome),
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
