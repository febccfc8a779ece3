import type { FastifyBaseLogger } from "fastify";
import type { PublicClient } from "viem";
import type { Database } from "./db/client.ts";
import type { AppConfig } from "./env.ts";
import type { Bus } from "./infra/bus.ts";
import type { Mailer } from "./infra/mailer.ts";
import type { Storage } from "./infra/storage.ts";
import { createPublisher } from "./services/content/publisher.ts";
import { createViewBuffer } from "./services/content/view-buffer.ts";
import type { Changed } from "./services/core/changes.ts";
import type { Federator } from "./services/federation/federation.ts";
import { createImportJob } from "./services/importing/import-job.ts";
import { createClosingJob } from "./services/leaving/closing.ts";
import { createExportJob } from "./services/leaving/exports.ts";
import { createErasureJob } from "./services/moderation/suspension.ts";
import { createDigestJob } from "./services/notifications/digest.ts";
import { createNotificationHub } from "./services/notifications/live.ts";
import { createPaymentWatcher } from "./services/payments/finality.ts";
import { createStatsRecorder } from "./services/stats/recorder.ts";
import type { AskAddress } from "./services/subscribers/imported.ts";
import { createWebhookSender } from "./services/webhooks/sender.ts";

/**
 * The jobs routes reach, decorated on the app (`app.views`, `app.exports`, ...) by app.ts from this list, their types
 * from `RouteJobs`.
 */
export const ROUTE_JOBS = [
  "views",
  "stats",
  "paymentWatcher",
  "publisher",
  "notificationHub",
  "digests",
  "federator",
  "exports",
  "imports",
  "webhooks",
] as const satisfies readonly (keyof Jobs)[];
/**
 * `stats`: reads added up off the request path (services/stats/recorder.ts); `exports`: "Download my data"
 * (services/leaving/exports.ts); `imports`: archives read in the background (services/importing/); `federator`: null
 * when the site does not federate (FEDERATION, PUBLIC_URL).
 */
export type RouteJobs = Pick<Jobs, (typeof ROUTE_JOBS)[number]>;

export interface JobDeps {
  database: Database;
  config: AppConfig;
  chain: PublicClient;
  mailer: Mailer;
  storage: Storage;
  bus: Bus;
  log: FastifyBaseLogger;
  changed: Changed;
  /** The form's per-address limit, which an imported list's confirmations count against too. */
  askAddress?: AskAddress;
}

/**
 * The server's background work, each on its own timer (infra/periodic.ts) on every instance: the mail outbox,
 * batched view counts and reading stats, payment re-checks, scheduled posts, live unread counts, daily digests and, when the site
 * federates, the fediverse's deliveries. What a job changes in public reads it tells `changed`, as requests do.
 */
export async function startJobs(deps: JobDeps) {
  const { database, config, mailer, bus, log, changed } = deps;
  const db = database.db;
  // What jobs tell users with (notifications, their mail, their open pages).
  const notifier = { db, config, mailer, bus, log, changed };
  mailer.start();
  // Views are counted in batches off the request path and show when a cached answer next expires (a view changes
  // no page at once, or pages would never stay cached).
  const views = createViewBuffer({ db, log });
  // Reads for the authors' stats likewise: added up in memory, written as hourly rollups once a second.
  const stats = createStatsRecorder({ db, log });
  const paymentWatcher = createPaymentWatcher({
    db,
    chain: deps.chain,
    finality: config.finalityConfirmations,
    log,
    notifier,
  });
  // Scheduled posts go out at their time.
  const publisher = createPublisher({ ...notifier, storage: deps.storage }, { everyMs: config.publishCheckMs });
  // Open pages hear of new notifications; digests go out once a day.
  const notificationHub = createNotificationHub({ db, bus, log });
  const digests = createDigestJob(notifier);
  // Accounts suspended 30 days ago are erased, and those their owners closed 14 days ago.
  const erasure = createErasureJob({ db, log });
  const closing = createClosingJob({ db, config, mailer, storage: deps.storage, log, changed });
  // Archives of a user's data ("Download my data"), one at a time per instance.
  const exports = createExportJob({ db, config, mailer, storage: deps.storage, log });
  // Archives brought in (WordPress, Ghost, Substack, Markdown), one at a time per instance.
  const imports = createImportJob({
    db,
    config,
    mailer,
    bus,
    storage: deps.storage,
    log,
    changed,
    askAddress: deps.askAddress,
  });
  // Webhooks: the deliveries that writes queued in their transactions, signed and sent from every instance.
  const webhooks = createWebhookSender({ db, config, mailer, log });
  // Fedify is loaded only when the site federates: a site that does not need not pay its memory and start-up time.
  const federator: Federator | null = config.federation
    ? (await import("./services/federation/federation.ts")).createFederator({ db, config, log, changed })
    : null;
  // Every job once, by its name, in the order they start; they stop the other way round. The live hub's streams end first
  // (endStreams, before the server waits for its connections), the mailer last.
  const running = {
    views,
    stats,
    paymentWatcher,
    publisher,
    notificationHub,
    digests,
    erasure,
    closing,
    exports,
    imports,
    webhooks,
    federator,
  } satisfies Record<string, { start(): void; close(): Promise<void> } | null>;
  for (const job of Object.values(running)) job?.start();

  return {
    ...running,
    /** Open event streams never finish on their own: they end before the server waits for its connections. */
    endStreams: () => notificationHub.close(),
    /** Stops every job, the last ones started first. */
    async close() {
      for (const [name, job] of Object.entries(running).reverse()) if (name !== "notificationHub") await job?.close();
      await mailer.close();
    },
  };
}
export type Jobs = Awaited<ReturnType<typeof startJobs>>;
