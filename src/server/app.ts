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
import { ROUTE_JOBS, type RouteJobs, startJobs } from "./jobs.ts";
import { registerAuth } from "./plugins/auth.ts";
import { registerBodyDeadline } from "./plugins/body-deadline.ts";
import { registerClient } from "./plugins/client.ts";
import { registerCompression } from "./plugins/compression.ts";
import { registerDocs } from "./plugins/docs.ts";
import { registerErrorHandling } from "./plugins/error-handler.ts";
import { registerInputGuard } from "./plugins/input-guard.ts";
import { registerMultipart } from "./plugins/multipart.ts";
import { DEFAULT_RATE_LIMITS, type RateLimits, registerRateLimits, scaleLimits } from "./plugins/rate-limits.ts";
import { registerReadCache } from "./plugins/read-cache.ts";
import { registerSecurityHeaders } from "./plugins/security-headers.ts";
import { registerTokenAuth } from "./plugins/token-auth.ts";
import { accountRoutes } from "./routes/auth/account.ts";
import { authRoutes } from "./routes/auth/index.ts";
import { blockRoutes } from "./routes/blocks/index.ts";
import { categoryRoutes } from "./routes/categories/index.ts";
import { commentRoutes } from "./routes/comments/index.ts";
import { federationApiRoutes } from "./routes/federation/api.ts";
import { registerFederationRoutes } from "./routes/federation/index.ts";
import { feedRoutes } from "./routes/feeds/index.ts";
import { importRoutes } from "./routes/imports/index.ts";
import { exportRoutes, leavingRoutes } from "./routes/leaving/index.ts";
import { messageRoutes } from "./routes/messages/index.ts";
import { moderationRoutes } from "./routes/moderation/index.ts";
import { notificationRoutes, oneClickUnsubscribeRoute } from "./routes/notifications/index.ts";
import { registerPages } from "./routes/pages/index.ts";
import { paymentRoutes } from "./routes/payments/index.ts";
import { postRoutes } from "./routes/posts/index.ts";
import { provenancePageRoute, provenanceRoutes } from "./routes/provenance/index.ts";
import { settingsRoutes } from "./routes/settings/index.ts";
import { statsRoutes } from "./routes/stats/index.ts";
import { oneClickSubscriptionRoute, subscriptionRoutes } from "./routes/subscriptions/index.ts";
import { systemRoutes } from "./routes/system/index.ts";
import { tokenRoutes } from "./routes/tokens/index.ts";
import { mcpRoutes } from "./routes/tokens/mcp.ts";
import { adminUserRoutes } from "./routes/users/admin.ts";
import { profileRoutes } from "./routes/users/profile.ts";
import { webhookRoutes } from "./routes/webhooks/index.ts";
import type { Deps } from "./services/core/deps.ts";
import { redirectFor } from "./services/importing/redirects.ts";
import { createFeeds, type Feeds } from "./services/public-reads/feeds.ts";
import { createPublicReads, type PublicReads } from "./services/public-reads/public-reads.ts";

declare module "fastify" {
  interface FastifyInstance extends RouteJobs {
    bus: Bus;
    config: AppConfig;
    database: Database;
    db: Db;
    chain: PublicClient;
    mailer: Mailer;
    /** Public reads through the read cache: the API routes and the reader pages ask here, with the same keys. */
    reads: PublicReads;
    feeds: Feeds;
    storage: Storage;
    /** What services are handed outside a request; a route hands them `request.deps`. */
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
    // Slow clients cannot hold sockets: the headers, then the body (plugins/body-deadline.ts, which lets a route
    // allow more), must arrive in time; idle sockets close. Node's own request timeout would hold every route alike.
    requestTimeout: 0,
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
  registerBodyDeadline(app, timeout);

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
  // Reads are served from a cache that writes tell what they changed (services/public-reads/).
  registerReadCache(app, { maxAgeMs: config.readCacheMaxAgeMs, refuseUnsaid: config.env !== "production" });
  const changed = app.changeLog.changed;
  // How often (before the jobs: an import's list counts against the form's per-address limit).
  const limits = scaleLimits({ ...DEFAULT_RATE_LIMITS, ...options.rateLimits }, config.rateLimitFactor);
  registerRateLimits(app, config.redisUrl, limits);
  const jobs = await startJobs({
    database,
    config,
    chain: app.chain,
    mailer,
    storage: app.storage,
    bus,
    log: app.log,
    changed,
    askAddress: (key) => app.limiter.hit("subscriptionAddress", key),
  });
  for (const name of ROUTE_JOBS) app.decorate(name, jobs[name]);
  app.addHook("preClose", () => jobs.endStreams());
  app.addHook("onClose", async () => {
    await jobs.close();
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
  registerTokenAuth(app);
  app.decorate("deps", {
    db: app.db,
    config,
    chain: app.chain,
    mailer,
    storage: app.storage,
    tokens: app.tokens,
    bus,
    log: app.log,
    changed,
  } satisfies Deps);
  const reads = createPublicReads(app.readCache, app.deps);
  app.decorate("reads", reads);
  app.decorate("feeds", createFeeds(reads, app.deps));
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
  await app.register(provenanceRoutes, { prefix: "/api/posts" });
  await app.register(commentRoutes, { prefix: "/api/comments" });
  await app.register(paymentRoutes, { prefix: "/api" });
  await app.register(settingsRoutes, { prefix: "/api/settings" });
  await app.register(notificationRoutes, { prefix: "/api/notifications" });
  await app.register(oneClickUnsubscribeRoute);
  await app.register(federationApiRoutes, { prefix: "/api/federation" });
  await app.register(moderationRoutes, { prefix: "/api" });
  await app.register(blockRoutes, { prefix: "/api" });
  await app.register(statsRoutes, { prefix: "/api/stats" });
  await app.register(subscriptionRoutes, { prefix: "/api" });
  await app.register(leavingRoutes, { prefix: "/api/users" });
  await app.register(exportRoutes, { prefix: "/api" });
  await app.register(webhookRoutes, { prefix: "/api" });
  await app.register(importRoutes, { prefix: "/api" });
  await app.register(oneClickSubscriptionRoute);
  await app.register(tokenRoutes, { prefix: "/api/tokens" });
  await app.register(mcpRoutes);
  if (jobs.federator) await registerFederationRoutes(app, jobs.federator);

  // 6. Reader pages rendered on the server, uploaded files, and the client with its fallback for client routes.
  const clientDir = options.clientDir ?? path.join(ROOT, "dist/client");
  await app.register(provenancePageRoute);
  await registerPages(app, { clientDir, serverDir: path.join(path.dirname(clientDir), "server") });
  await app.register(feedRoutes);
  await registerClient(app, {
    clientDir,
    uploadsDir: path.resolve(config.dataDir, "uploads"),
    redirectFor: (pathname) => redirectFor(app.deps, pathname),
  });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
