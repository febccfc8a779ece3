import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type App, buildApp } from "./app.ts";
import type { Database } from "./db/client.ts";
import { DataDirLockedError } from "./db/data-dir-lock.ts";
import { openMigratedDatabase } from "./db/open.ts";
import { type AppConfig, EnvError, loadConfig } from "./env.ts";

/** Outside production a missing JWT_SECRET is generated once and kept in the data folder, so sessions survive restarts. */
function resolveJwtSecret(config: AppConfig): string {
  if (config.jwtSecret) return config.jwtSecret;
  const file = path.join(config.dataDir, "jwt-secret");
  if (!fs.existsSync(file)) fs.writeFileSync(file, crypto.randomBytes(48).toString("base64url"), { mode: 0o600 });
  return fs.readFileSync(file, "utf8").trim();
}

/**
 * The RPC must serve the configured chain: payments read from another chain would be checked against the wrong
 * ledger. A node that does not answer yet is let be (the health check and each payment say so); one that answers
 * with another chain stops the start.
 */
async function checkChain(app: App, config: AppConfig) {
  const served = await app.chain.getChainId().catch((error: Error) => {
    app.log.warn({ err: error, rpcUrl: config.rpcUrl }, "the chain's RPC does not answer yet; payments wait for it");
    return null;
  });
  if (served !== null && served !== config.chain.id) {
    throw new EnvError([
      `RPC_URL (${config.rpcUrl}) serves chain ${served}, but CHAIN_ID is ${config.chain.id}: point RPC_URL at a node of chain ${config.chain.id}, or set CHAIN_ID=${served}`,
    ]);
  }
}

/**
 * Opens and migrates the database (unless the caller did, as `npm start` does while the chain starts), builds the
 * app and listens. The caller owns shutdown (`app.close()`).
 */
export async function startServer(
  config: AppConfig,
  options: { clientDir?: string; database?: Database } = {},
): Promise<{ app: App; url: string }> {
  const database = options.database ?? (await openMigratedDatabase(config));
  config.jwtSecret = resolveJwtSecret(config);
  let app: App | undefined;
  try {
    app = await buildApp({ config, database, clientDir: options.clientDir });
    await checkChain(app, config);
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await (app ? app.close() : database.close());
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  return { app, url: `http://localhost:${port}` };
}

/** Stops accepting requests, lets running ones finish, closes the database; gives up after 10 s. */
export function closeOnSignals(close: () => Promise<void>) {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    const timer = setTimeout(() => {
      console.error(`Shutdown after ${signal} took too long; exiting.`);
      process.exit(1);
    }, 10_000);
    timer.unref();
    close().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
}

/** Prints a start-up failure the user can act on, without a stack trace for the expected ones. */
export function reportStartupError(error: unknown): never {
  if (error instanceof EnvError || error instanceof DataDirLockedError) console.error(error.message);
  else console.error("Penchain could not start:", error);
  process.exit(1);
}

if (import.meta.main) {
  try {
    const { app, url } = await startServer(loadConfig());
    app.log.info(`Penchain is serving ${url}`);
    closeOnSignals(() => app.close());
  } catch (error) {
    reportStartupError(error);
  }
}
