import fs from "node:fs";
import path from "node:path";
import { createFederation, type Federation } from "@fedify/fedify";
import { configureSync, getConfig, type LogRecord } from "@logtape/logtape";
import type { FastifyBaseLogger } from "fastify";
import { guardedDelivery, PrivateAddressError } from "../../infra/delivery-guard.ts";
import { createFederationKv } from "../../infra/federation-kv.ts";
import { createFederationQueue } from "../../infra/federation-queue.ts";
import { periodic } from "../../infra/periodic.ts";
import type { Changed } from "../core/changes.ts";
import type { Deps } from "../core/deps.ts";
import { isActorDelete, isActorUpdate, isFlagForward, isPostActivity } from "../core/federation-queue.ts";
import { NOTHING_PUBLIC } from "../core/tags.ts";
import { createKeyring } from "../provenance/keys.ts";
import { registerDispatchers } from "./dispatchers.ts";
import { forgetFollower } from "./followers.ts";
import { registerInbox } from "./inbox.ts";
import { deliverActorDelete, deliverActorUpdate, deliverFlag, deliverPostActivity } from "./outgoing.ts";
import { checkSender } from "./senders.ts";

/** Penchain's version, for NodeInfo and the User-Agent of deliveries. */
const packageVersion = () =>
  (
    JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../../../package.json"), "utf8")) as {
      version: string;
    }
  ).version;

/** A delivery Fedify queued: one activity to one inbox. */
const isOutboxMessage = (message: unknown): message is { type: "outbox"; inbox: string } =>
  (message as { type?: unknown }).type === "outbox" && typeof (message as { inbox?: unknown }).inbox === "string";

/** Fedify logs through LogTape; its warnings and errors (refused activities, failed deliveries) go to our log. */
let fedifyLog: FastifyBaseLogger | undefined;
function routeFedifyLogs(log: FastifyBaseLogger) {
  fedifyLog = log;
  if (getConfig()) return;
  const sink = (record: LogRecord) => {
    const message = record.message.map((part) => (typeof part === "string" ? part : String(part))).join("");
    // What a line needs (ids, inboxes, types, errors), never a whole activity: an article is many kilobytes.
    const fields = Object.fromEntries(
      Object.entries(record.properties)
        .filter(([, value]) => ["string", "number", "boolean"].includes(typeof value) || value instanceof Error)
        .map(([key, value]) => [key, typeof value === "string" ? value.slice(0, 300) : value]),
    );
    const line = { category: record.category.join("."), ...fields };
    if (record.level === "error" || record.level === "fatal") fedifyLog?.error(line, message);
    else if (record.level === "warning") fedifyLog?.warn(line, message);
    else fedifyLog?.info(line, message);
  };
  configureSync({
    sinks: { app: sink },
    loggers: [
      { category: ["fedify"], lowestLevel: "warning", sinks: ["app"] },
      // Each delivery made, and each activity received and handled.
      { category: ["fedify", "federation", "outbox"], lowestLevel: "info", sinks: ["app"], parentSinks: "override" },
      { category: ["fedify", "federation", "inbox"], lowestLevel: "info", sinks: ["app"], parentSinks: "override" },
      { category: ["logtape", "meta"], lowestLevel: "error", sinks: ["app"] },
    ],
  });
}

/**
 * The site on the fediverse, built on Fedify: every author an actor (`@handle@host`, a `Person`), the
 * site one too (`@blog@host`, a `Group` that announces every post), WebFinger and NodeInfo, a shared inbox, and
 * deliveries of posts queued in the database. Null when the site does not federate (`config.federation`).
 */
export function createFederator(deps: Pick<Deps, "db" | "config" | "log" | "changed">) {
  const settings = deps.config.federation;
  if (!settings) return null;
  const { db, log } = deps;
  const base = deps.config.publicUrl;
  routeFedifyLogs(log);
  const version = packageVersion();
  const kv = createFederationKv(db);
  const queue = createFederationQueue({ db, log, leaseMs: settings.leaseMs });

  const context = () => federation.createContext(new URL(base));
  const federation: Federation<void> = createFederation<void>({
    kv,
    // Our own messages (a post's activity, queued in the transaction that changed it) share the queue; Fedify's
    // handler gets the rest.
    queue: {
      ...queue,
      listen: (handler, options) =>
        queue.listen((message) => {
          if (isPostActivity(message)) return deliverPostActivity(context(), db, base, message);
          if (isActorUpdate(message)) return deliverActorUpdate(context(), db, base, message);
          if (isActorDelete(message)) return deliverActorDelete(context(), db, message);
          if (isFlagForward(message)) return deliverFlag(context(), db, message);
          if (isOutboxMessage(message))
            return guardedDelivery(message.inbox, settings.allowPrivateAddress, async () => handler(message)).catch(
              (error) => {
                // An inbox no delivery may reach never will: dropped, not tried again.
                if (!(error instanceof PrivateAddressError)) throw error;
                log.warn({ inbox: message.inbox, reason: error.message }, "federation: a delivery was refused");
              },
            );
          return handler(message);
        }, options),
    },
    manuallyStartQueue: true,
    origin: base,
    allowPrivateAddress: settings.allowPrivateAddress,
    userAgent: { software: `Penchain/${version}`, url: new URL(base) },
    onOutboxError: (error, activity) =>
      log.warn({ err: error, activity: activity?.id?.href }, "federation: a delivery failed; it is tried again later"),
  });

  const { actorExists } = registerDispatchers(federation, { db, base, version, keyring: createKeyring(db) });
  registerInbox(federation, { db, log, allowPrivateAddress: settings.allowPrivateAddress, actorExists });

  federation.setOutboxPermanentFailureHandler(async (_ctx, failure) => {
    log.warn(
      { inbox: failure.inbox.href, reason: failure.reason },
      "federation: an inbox is gone; its followers dropped",
    );
    await forgetFollower(db, { inbox: failure.inbox.href });
  });

  const stop = new AbortController();
  let listening: Promise<void> | undefined;
  const sweeper = periodic(() => kv.sweep(), {
    everyMs: 60 * 60_000,
    onError: (error) => log.warn({ err: error }, "federation: kv sweep failed"),
  });

  return {
    /**
     * Answers a federation request: WebFinger, NodeInfo, actors and their collections, inboxes, an article. An
     * inbox's request tells its own `changed`.
     */
    async fetch(request: Request, changed: Changed = deps.changed): Promise<Response> {
      if (request.method === "POST") {
        const activity: unknown = await request
          .clone()
          .json()
          .catch(() => null);
        await checkSender(federation.createContext(request, undefined), db, request, activity).catch((error) => {
          log.warn({ reason: (error as Error).message }, "federation: an activity was refused");
          throw error;
        });
        // What an activity does is kept in the federation's tables, which are read uncached.
        changed(NOTHING_PUBLIC);
      }
      return federation.fetch(request, {
        contextData: undefined,
        onNotFound: () => Response.json({ message: "Not found" }, { status: 404 }),
        onNotAcceptable: () =>
          Response.json({ message: "This address answers ActivityStreams JSON only" }, { status: 406 }),
      });
    },
    start() {
      listening = federation.startQueue(undefined, { signal: stop.signal });
      sweeper.start();
    },
    /** Looks at the queue now: a post's activity was just queued. */
    nudge: () => queue.nudge(),
    async close() {
      stop.abort();
      await sweeper.close();
      await listening?.catch(() => {});
    },
  };
}

export type Federator = NonNullable<ReturnType<typeof createFederator>>;
