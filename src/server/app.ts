import path from "node:path";
import fastifyHelmet from "@fastify/helmet";
import Fastify, { type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { PublicClient } from "viem";
import type { Database, Db } from "./db/client.ts";
import type { AppConfig } from "./env.ts";
import { registerClient } from "./plugins/client.ts";
import { registerDocs } from "./plugins/docs.ts";
import { registerErrorHandling } from "./plugins/error-handler.ts";
import { systemRoutes } from "./routes/system/index.ts";
import { createChainClient } from "./services/chain.ts";

declare module "fastify" {
  interface FastifyInstance {
    config: AppConfig;
    database: Database;
    db: Db;
    chain: PublicClient;
  }
}

export interface AppOptions {
  config: AppConfig;
  /** Opened (and migrated) by the caller; the app closes it when it closes. */
  database: Database;
  logger?: FastifyServerOptions["logger"];
  /** The built client; defaults to dist/client. */
  clientDir?: string;
}

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Builds the whole app without listening, so tests can `inject` requests into exactly what production runs. */
export async function buildApp(options: AppOptions) {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    trustProxy: config.env === "production",
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  // 1. Contract and errors: zod validates requests and shapes responses; one handler answers every error.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  // 2. Shared services, available to every route as app.<name>.
  app.decorate("config", config);
  app.decorate("database", database);
  app.decorate("db", database.db);
  app.decorate("chain", createChainClient(config));
  app.addHook("onClose", () => database.close());

  // 3. Security headers. Wallets talk to the chain's RPC and to wallet services from the browser.
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:", "https:"],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'", new URL(config.publicRpcUrl).origin, "https:", "wss:"],
        "frame-src": ["'self'", "https:"],
        "upgrade-insecure-requests": null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });

  // 4. API: the OpenAPI document first, so it sees every route registered after it.
  await registerDocs(app);
  await app.register(systemRoutes, { prefix: "/api" });

  // 5. Uploads and the single-page client, with its fallback for client routes.
  await registerClient(app, {
    clientDir: options.clientDir ?? path.join(ROOT, "dist/client"),
    uploadsDir: path.resolve(config.dataDir, "uploads"),
  });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
