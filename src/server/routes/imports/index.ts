import fs from "node:fs";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  importIdParamsSchema,
  importRequestSchema,
  importStateSchema,
  MAX_IMPORT_BYTES,
} from "#shared/schemas/imports.ts";
import { currentUser } from "../../plugins/auth.ts";
import { uploadToDisk } from "../../plugins/multipart.ts";
import { byUser, limitBy } from "../../plugins/rate-limits.ts";
import {
  cancelImport,
  importState,
  latestImport,
  startImport,
  uploadDir,
} from "../../services/importing/import-requests.ts";

const tags = ["imports"];

/** Bringing an archive in: upload it, follow it, cancel it. */
export const importRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post("/imports", {
    schema: {
      tags,
      summary:
        "Import an archive (multipart: `format` wxr | ghost | substack | markdown, `file`, `fetchImages`, and for admins `site` with `authors` lines `old name = e-mail`): checked whole, then read in the background",
      consumes: ["multipart/form-data"],
      body: importRequestSchema,
      response: { 202: importStateSchema },
    },
    // A large archive on a home connection takes long to arrive: an hour (at least 300 KB/s for the largest).
    config: { bodyDeadlineMs: 60 * 60_000 },
    // Who is calling is known before a byte of the file is written.
    onRequest: [app.requireUser, limitBy(app, "accountChanges", byUser)],
    preValidation: uploadToDisk(uploadDir(app.config), MAX_IMPORT_BYTES, "The archive must be at most 1 GB"),
    handler: async (request, reply) => {
      const state = await startImport(request.deps, currentUser(request), request.body);
      app.imports.wake();
      return reply.code(202).send(state);
    },
  });

  app.get("/imports/latest", {
    schema: {
      tags,
      summary: "The signed-in user's latest import, if any",
      response: { 200: z.object({ import: z.nullable(importStateSchema) }) },
    },
    preHandler: app.requireUser,
    handler: async (request) => ({ import: await latestImport(request.deps, currentUser(request)) }),
  });

  app.get("/imports/:id", {
    schema: {
      tags,
      summary: "An import's progress: items done of those found, and each item's error with its reason",
      params: importIdParamsSchema,
      response: { 200: importStateSchema },
    },
    preHandler: app.requireUser,
    handler: async (request) => importState(request.deps, currentUser(request), request.params.id),
  });

  app.delete("/imports/:id", {
    schema: {
      tags,
      summary: "Cancel an import: it stops at its next item; what it wrote stays, and importing the file again goes on",
      params: importIdParamsSchema,
      response: { 200: importStateSchema },
    },
    preHandler: app.requireUser,
    handler: async (request) => cancelImport(request.deps, currentUser(request), request.params.id),
  });

  // An upload the body's schema refused leaves no file behind.
  app.addHook("onResponse", async (request) => {
    const file = (request.body as { file?: { path?: unknown } } | undefined)?.file?.path;
    if (typeof file === "string" && file.endsWith(".part")) fs.rmSync(file, { force: true });
  });
};
