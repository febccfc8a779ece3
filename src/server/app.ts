import path from "node:path";
import Fastify, { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import pino from "pino";
import type { PublicClient } from "viem";
import type { Database, Db } from "./db/client.ts";
import type { AppConfig } from "./env.ts";
import { type Bus, createBus } from "./infra/bus.ts";
import { createChainClient } from "./infra/chain.ts";
import { createMailer, type Mailer } from "./infra/mailer.ts";
import { createStorage, type Storage } from "./infra/storage.ts";
import { registerAuth } from "./plugins/auth.ts";
import { registerClient } from "./plugins/client.ts";
import { registerCompression } from "./plugins/compression.ts";
import { registerDocs } from "./plugins/docs.ts";
import { registerErrorHandling } from "./plugins/error-handler.ts";
import { registerInputGuard } from "./plugins/input-guard.ts";
import { registerMultipart } from "./plugins/multipart.ts";
import { registerPublicReads } from "./plugins/public-reads.ts";
import { DEFAULT_RATE_LIMITS, type RateLimits, registerRateLimits, scaleLimits } from "./plugins/rate-limits.ts";
import { cacheTags, registerReadCache } from "./plugins/read-cache.ts";
import { registerSecurityHeaders } from "./plugins/security-headers.ts";
import { accountRoutes } from "./routes/auth/account.ts";
import { authRoutes } from "./routes/auth/index.ts";
import { categoryRoutes } from "./routes/categories/index.ts";
import { commentRoutes } from "./routes/comments/index.ts";
import { federationApiRoutes } from "./routes/federation/api.ts";
import { registerFederationRoutes } from "./routes/federation/index.ts";
import { feedRoutes } from "./routes/feeds/index.ts";
import { messageRoutes } from "./routes/messages/index.ts";
import { notificationRoutes, oneClickUnsubscribeRoute } from "./routes/notifications/index.ts";
import { registerPages } from "./routes/pages/index.ts";
import { paymentRoutes } from "./routes/payments/index.ts";
import { postRoutes } from "./routes/posts/index.ts";
import { settingsRoutes } from "./routes/settings/index.ts";
import { systemRoutes } from "./routes/system/index.ts";
import { adminUserRoutes } from "./routes/users/admin.ts";
import { profileRoutes } from "./routes/users/profile.ts";
import { createPublisher, type Publisher } from "./services/content/publisher.ts";
import { createViewBuffer, type ViewBuffer } from "./services/content/view-buffer.ts";
import type { Deps } from "./services/deps.ts";
import type { Federator } from "./services/federation/federation.ts";
import { createDigestJob, type DigestJob } from "./services/notifications/digest.ts";
import { createNotificationHub, type NotificationHub } from "./services/notifications/live.ts";
import { createPaymentWatcher, type PaymentWatcher } from "./services/payments/finality.ts";

declare module "fastify" {
  interface FastifyInstance {
    bus: Bus;
    notificationHub: NotificationHub;
    digests: DigestJob;
    /** Null when the site does not federate (FEDERATION, PUBLIC_URL). */
    federator: Federator | null;
    config: AppConfig;
    database: Database;
    db: Db;
    chain: PublicClient;
    mailer: Mailer;
    paymentWatcher: PaymentWatcher;
    publisher: Publisher;
    views: ViewBuffer;
    storage: Storage;
    /** What services are handed: `service(app.deps, ...)`. */
    deps: Deps;
    /** Every route registered, as `METHOD /path` (HEAD answers where GET does); the permission test reads it. */
    routeList: () => string[];
  }
}

export interface AppOptions {
  config: AppConfig;
  /** Opened (and migrated) by the caller; the app closes it when it closes. */
  database: Database;
  logger?: FastifyServerOptions["logger"];
  /** The built client; defaults to dist/client. The server renderer of reader pages is beside it (dist/server). */
  clientDir?: string;
  /** Tests that send many requests from one address raise these; production uses the defaults. */
  rateLimits?: Partial<RateLimits>;
}

const ROOT = path.resolve(import.meta.dirname, "../..");

/** One log line per request, when it ends (Fastify writes two: received and completed). */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const line = { method: request.method, url: request.url, status: reply.statusCode, ms };
    if (error) reply.log.error({ ...line, err: error }, "request failed");
    else reply.log.info(line, "request");
  }
}

/**
 * Fastify trusts no one for a bare hop count (a direct client could add entries), so the count becomes the rule
 * Express uses: the nearest N hops are ours. That holds when every request comes through those proxies.
 */
function trustedProxies(trust: AppConfig["trustProxy"]): FastifyServerOptions["trustProxy"] {
  return typeof trust === "number" ? (_address: string, hop: number) => hop < trust : trust;
}

/** Builds the whole app without listening, so tests can `inject` requests into exactly what production runs. */
export async function buildApp(options: AppOptions) {
  const { config, database } = options;
  if (!config.jwtSecret) throw new Error("JWT_SECRET is not set");
  const timeout = config.requestTimeoutMs;
  // Log lines are written off the request path, 4 KB at a time under load and at least every 250 ms when quiet
  // (pino's asynchronous logging; it flushes what is left when the process exits).
  const logStream =
    options.logger === undefined ? pino.destination({ dest: 1, sync: false, minLength: 4096 }) : undefined;
  const logFlush = logStream && setInterval(() => logStream.flush(), 250).unref();
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel, stream: logStream },
    logController: new OneLinePerRequest(),
    // Forwarded headers are believed only from the proxies TRUST_PROXY names: anyone else could pick their address.
    trustProxy: trustedProxies(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // Slow clients cannot hold sockets: the headers, then the whole request, must arrive in time; idle sockets close.
    requestTimeout: timeout,
    connectionTimeout: 2 * timeout,
    keepAliveTimeout: 5_000,
  }).withTypeProvider<ZodTypeProvider>();
  // Node looks for late requests every 30 s by default, which would let a slow client stay that much longer.
  Object.assign(app.server, {
    headersTimeout: Math.min(timeout, 10_000),
    connectionsCheckingInterval: Math.min(1_000, timeout),
    maxConnections: config.maxConnections,
  });

  const routes = new Set<string>();
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) if (method !== "HEAD") routes.add(`${method} ${route.url}`);
  });
  app.decorate("routeList", () => [...routes]);

  // 1. Contract and errors: zod validates requests and shapes responses; one handler answers every error.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerInputGuard(app);

  // 2. Shared services, available to every route as app.<name>.
  app.decorate("config", config);
  app.decorate("database", database);
  app.decorate("db", database.db);
  app.decorate("chain", createChainClient(config));
  app.decorate("storage", createStorage(config));
  // Messages to every instance (through Redis when REDIS_URL is set): cache invalidations, unread counts.
  const bus = createBus({ redisUrl: config.redisUrl, log: app.log });
  app.decorate("bus", bus);
  const mailer = createMailer({
    db: database.db,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    dataDir: config.dataDir,
    log: app.log,
    leaseMs: config.mailLeaseMs,
  });
  app.decorate("mailer", mailer);
  mailer.start();
  // Reads are served from a cache that writes invalidate; views are counted in batches off the request path and
  // show when a cached answer next expires (a view changes no page at once, or pages would never stay cached).
  registerReadCache(app, { maxAgeMs: config.readCacheMaxAgeMs });
  registerPublicReads(app);
  // What background jobs tell users with (notifications, their mail, their open pages).
  const notifier = { db: database.db, config, mailer, bus, log: app.log };
  const views = createViewBuffer({ db: database.db, log: app.log });
  app.decorate("views", views);
  views.start();
  const paymentWatcher = createPaymentWatcher({
    db: database.db,
    chain: app.chain,
    finality: config.finalityConfirmations,
    log: app.log,
    notifier,
    onChange: () => app.readCache.invalidate(),
  });
  app.decorate("paymentWatcher", paymentWatcher);
  paymentWatcher.start();
  // Scheduled posts go out at their time; what a publish changes is public, so cached reads are dropped.
  const publisher = createPublisher(notifier, {
    everyMs: config.publishCheckMs,
    onPublished: () => app.readCache.invalidate([cacheTags.posts]),
  });
  app.decorate("publisher", publisher);
  publisher.start();
  // Notifications: open pages hear of new ones; digests go out once a day.
  const notificationHub = createNotificationHub({ db: database.db, bus, log: app.log });
  app.decorate("notificationHub", notificationHub);
  notificationHub.start();
  const digests = createDigestJob(notifier);
  app.decorate("digests", digests);
  digests.start();
  // The fediverse: actors, inboxes, and deliveries queued in the database (issue 21), when the site federates.
  // Fedify is loaded only then: a site that does not federate need not pay its memory and start-up time.
  const federator = config.federation
    ? (await import("./services/federation/federation.ts")).createFederator({ db: database.db, config, log: app.log })
    : null;
  app.decorate("federator", federator);
  federator?.start();
  // Open event streams never finish on their own: they are ended before the server waits for its connections.
  app.addHook("preClose", () => notificationHub.close());
  app.addHook("onClose", async () => {
    await federator?.close();
    await digests.close();
    await publisher.close();
    await paymentWatcher.close();
    await views.close();
    await mailer.close();
    await bus.close();
    await database.close();
    clearInterval(logFlush);
    await new Promise<void>((resolve) => (logStream ? logStream.flush(() => resolve()) : resolve()));
  });

  // 3. Security headers (wallets talk to the chain's RPC and to wallet services from the browser), and compression
  // of every answer worth it: pages, JSON, feeds. Built assets are compressed once, at build time.
  registerSecurityHeaders(app, config.publicRpcUrl);
  await registerCompression(app);

  // 4. Who is calling, how often, and uploads (streamed, capped at 5 MB, one file).
  registerAuth(app, config.jwtSecret);
  app.decorate("deps", {
    db: app.db,
    config,
    chain: app.chain,
    mailer,
    storage: app.storage,
    tokens: app.tokens,
    bus,
    log: app.log,
  } satisfies Deps);
  const limits = scaleLimits({ ...DEFAULT_RATE_LIMITS, ...options.rateLimits }, config.rateLimitFactor);
  registerRateLimits(app, config.redisUrl, limits);
  await registerMultipart(app);

  // 5. API: the OpenAPI document first, so it sees every route registered after it.
  await registerDocs(app);
  await app.register(systemRoutes, { prefix: "/api" });
  await app.register(authRoutes, { prefix: "/api/auth" });
  await app.register(accountRoutes, { prefix: "/api/users" });
  await app.register(profileRoutes, { prefix: "/api/users" });
  await app.register(adminUserRoutes, { prefix: "/api/users" });
  await app.register(messageRoutes, { prefix: "/api/email" });
  await app.register(categoryRoutes, { prefix: "/api/category" });
  await app.register(postRoutes, { prefix: "/api/posts" });
  await app.register(commentRoutes, { prefix: "/api/comments" });
  await app.register(paymentRoutes, { prefix: "/api" });
  await app.register(settingsRoutes, { prefix: "/api/settings" });
  await app.register(notificationRoutes, { prefix: "/api/notifications" });
  await app.register(oneClickUnsubscribeRoute);
  await app.register(federationApiRoutes, { prefix: "/api/federation" });
  if (federator) await registerFederationRoutes(app, federator);

  // 6. Reader pages rendered on the server, uploaded files, and the client with its fallback for client routes.
  const clientDir = options.clientDir ?? path.join(ROOT, "dist/client");
  await registerPages(app, { clientDir, serverDir: path.join(path.dirname(clientDir), "server") });
  await app.register(feedRoutes);
  await registerClient(app, {
    clientDir,
    uploadsDir: path.resolve(config.dataDir, "uploads"),
  });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
