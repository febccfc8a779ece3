import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler, preHandlerHookHandler } from "fastify";
import { type CachedResponse, createReadCache, type ReadCache } from "../infra/read-cache.ts";
import { type ChangeLog, type ChangeRecord, createChangeLog } from "../services/core/changes.ts";
import type { Deps } from "../services/core/deps.ts";
import { sendCompressed, varyOn } from "./compression.ts";

declare module "fastify" {
  interface FastifyInstance {
    readCache: ReadCache;
    /** The one path from writes to the read cache: `deps.changed` is its `changed`. */
    changeLog: ChangeLog;
  }
  interface FastifyRequest {
    /** What this request's services are handed: `service(request.deps, ...)`; `app.deps` outside a request. */
    readonly deps: Deps;
    /** A write request's record, and the deps whose `changed` notes on it. */
    changeRecord: { record: ChangeRecord; deps: Deps } | null;
  }
}

/** What a write route that said nothing of what it changed is told, where unsaid changes are refused. */
export const UNSAID_CHANGES = "A write said nothing of what it changed (request.deps.changed)";

/**
 * The read cache, and the rule that keeps it right: each write service tells `deps.changed` what it changed once it
 * is committed, before its answer leaves, so the writer's next read sees it. A successful write request that said
 * nothing drops everything (safe, and slow); outside production it fails, so a new write that forgets is caught
 * by its first test.
 */
export function registerReadCache(app: FastifyInstance, options: { maxAgeMs: number; refuseUnsaid: boolean }) {
  const cache = createReadCache({ maxAgeMs: options.maxAgeMs, bus: app.bus, log: app.log });
  const log = createChangeLog((tags) => cache.invalidate(tags));
  app.decorate("readCache", cache);
  app.decorate("changeLog", log);
  app.decorateRequest("changeRecord", null);
  app.decorateRequest("deps", {
    getter(this: FastifyRequest) {
      return this.changeRecord?.deps ?? app.deps;
    },
  });
  // Attached to write routes only, so reads pay nothing for it.
  app.addHook("onRoute", (route) => {
    const methods = [route.method].flat();
    if (methods.every((method) => method === "GET" || method === "HEAD" || method === "OPTIONS")) return;
    const record: preHandlerHookHandler = (request, _reply, done) => {
      const said = { said: false };
      request.changeRecord = { record: said, deps: { ...app.deps, changed: log.noting(said) } };
      done();
    };
    const check: onSendHookHandler = (request, reply, payload, done) => {
      if (reply.statusCode >= 400 || request.changeRecord?.record.said !== false) return done(null, payload);
      cache.invalidate();
      const error = new Error(`${UNSAID_CHANGES}: ${request.method} ${request.routeOptions.url}`);
      if (!options.refuseUnsaid) {
        request.log.error(error.message);
        return done(null, payload);
      }
      done(error);
    };
    route.preHandler = [record, ...[route.preHandler ?? []].flat()];
    route.onSend = [...[route.onSend ?? []].flat(), check];
  });
}

/**
 * Sends a cached answer as it was encoded and compressed once, or 304 when the client has it already. Its
 * readers may get it from another instance a moment later, so it is revalidated on every use.
 */
export function sendCached(request: FastifyRequest, reply: FastifyReply, entry: CachedResponse) {
  reply.header("etag", entry.etag).header("cache-control", "no-cache");
  if (request.headers["if-none-match"] === entry.etag) {
    varyOn(reply, "accept-encoding");
    return reply.code(304).send();
  }
  return sendCompressed(request, reply.type(entry.type), entry);
}
