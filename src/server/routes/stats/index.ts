import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { postIdParamsSchema } from "#shared/schemas/posts.ts";
import { beaconSchema, statsQuerySchema, statsSchema } from "#shared/schemas/stats.ts";
import { currentUser } from "../../plugins/auth.ts";
import { sendCsv } from "../../plugins/downloads.ts";
import { byAddress, byUser, limitBy } from "../../plugins/rate-limits.ts";
import { readRequestOf } from "../../plugins/read-request.ts";
import { recordRead } from "../../services/stats/record.ts";
import { authorStats, postStats, siteStats, statsCsv } from "../../services/stats/stats.ts";

const tags = ["stats"];

/** Reads recorded without cookies (`/api/stats/beacon`), and the author's, a post's and the site's numbers. */
export const statsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post("/beacon", {
    schema: {
      tags,
      summary:
        "Record a read of a post or a profile shown by the app (no session; not counted with DNT or Global Privacy Control, or for bots)",
      body: beaconSchema,
      response: { 204: z.null().describe("Recorded, or left out") },
    },
    preHandler: limitBy(app, "beacons", byAddress),
    handler: async (request, reply) => {
      const { kind, id, referrer, url } = request.body;
      recordRead(request.deps, app.stats, readRequestOf(request, { kind, targetId: id, referrer, url }));
      return reply.code(204).send(null);
    },
  });

  const period = { querystring: statsQuerySchema };
  const views = [
    {
      url: "/author",
      summary: "The signed-in author's stats: reads over time, sources, campaigns, devices, audience and tips",
      guard: app.requireUser,
      scope: "stats:read" as const,
      get: (request: FastifyRequest) => authorStats(request.deps, currentUser(request), request.query as never),
      name: () => "stats",
    },
    {
      url: "/site",
      summary:
        "The site's stats (admins): readers, registrations, fees and tips, rewards, posts, mail, the fediverse's queue",
      guard: app.requireAdmin,
      scope: "admin" as const,
      get: (request: FastifyRequest) => siteStats(request.deps, request.query as never),
      name: () => "site-stats",
    },
  ];
  for (const view of views) {
    app.get(view.url, {
      config: { scope: view.scope },
      schema: { tags, summary: view.summary, ...period, response: { 200: statsSchema } },
      preHandler: [view.guard, limitBy(app, "stats", byUser)],
      handler: async (request) => view.get(request),
    });
    app.get(`${view.url}.csv`, {
      config: { scope: view.scope },
      schema: { tags, summary: `${view.summary}, as CSV`, ...period, produces: ["text/csv"] },
      preHandler: [view.guard, limitBy(app, "stats", byUser)],
      handler: async (request, reply) => sendCsv(reply, view.name(), statsCsv(await view.get(request))),
    });
  }

  app.get("/posts/:id", {
    config: { scope: "stats:read" },
    schema: {
      tags,
      summary: "A post's stats (its author or an admin)",
      params: postIdParamsSchema,
      ...period,
      response: { 200: statsSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "stats", byUser)],
    handler: async (request) => postStats(request.deps, currentUser(request), request.params.id, request.query),
  });
  app.get("/posts/:id.csv", {
    config: { scope: "stats:read" },
    schema: {
      tags,
      summary: "A post's stats (its author or an admin), as CSV",
      params: postIdParamsSchema,
      ...period,
      produces: ["text/csv"],
    },
    preHandler: [app.requireUser, limitBy(app, "stats", byUser)],
    handler: async (request, reply) =>
      sendCsv(
        reply,
        "post-stats",
        statsCsv(await postStats(request.deps, currentUser(request), request.params.id, request.query)),
      ),
  });
};
