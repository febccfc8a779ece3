import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildApp } from "../../src/server/app.ts";
import type { Database } from "../../src/server/db/client.ts";
import { loadConfig } from "../../src/server/env.ts";
import { DEFAULT_RATE_LIMITS, type RateLimits } from "../../src/server/plugins/rate-limits.ts";

const GENEROUS = { max: 10_000, timeWindow: 60_000 };
/** The secret test apps sign sessions and unsubscribe links with. */
export const TEST_JWT_SECRET = "test-secret-that-is-long-enough-for-tests-0123456789";
/** Tests send many requests from one address; the limits themselves are tested with their real values. */
export const generousLimits = Object.fromEntries(
  Object.keys(DEFAULT_RATE_LIMITS).map((name) => [name, GENEROUS]),
) as RateLimits;

interface TestAppOptions {
  env?: Record<string, string>;
  clientDir?: string;
  rateLimits?: Partial<RateLimits>;
}

/**
 * Builds the real app on the given database (which the app closes with itself). An unused port stands in for the
 * chain unless RPC_URL is given.
 */
export async function buildTestApp(database: Database, options: TestAppOptions = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-test-"));
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    PUBLIC_URL: "http://penchain.test",
    JWT_SECRET: TEST_JWT_SECRET,
    RPC_URL: "http://127.0.0.1:9",
    // Test accounts are all new: the spam defence's own tests set it back.
    NEW_ACCOUNT_POSTS_PER_DAY: "10000",
    ...options.env,
  });
  const app = await buildApp({
    config,
    database,
    logger: false,
    clientDir: options.clientDir ?? path.join(dataDir, "no-client"),
    rateLimits: options.rateLimits ?? generousLimits,
  });
  app.addHook("onClose", () => fs.rmSync(dataDir, { recursive: true, force: true }));
  return app;
}

/** A view of a database that the app may "close" without closing it, for suites that build several apps on one. */
export const keepOpen = (database: Database): Database => ({ ...database, close: async () => {} });

/**
 * Two instances of the app on one fresh PostgreSQL database, telling each other through Redis, with cached answers
 * kept for a minute (so only the bus can drop them); `close` stops both and drops the database.
 */
export async function twoInstances(open: () => Promise<Database>) {
  const database = await open();
  const env = { REDIS_URL: process.env.TEST_REDIS_URL as string, READ_CACHE_MAX_AGE_MS: "60000" };
  const one = await buildTestApp(keepOpen(database), { env });
  const two = await buildTestApp(keepOpen(database), { env });
  return {
    one,
    two,
    async close() {
      await one.close();
      await two.close();
      await database.close();
    },
  };
}

/** Asks `check` again every 50 ms for up to 3 s until it answers `wanted`; answers its last answer. */
export async function eventually<T>(check: () => Promise<T>, wanted: T) {
  let seen = await check();
  for (let waited = 0; waited < 3000 && seen !== wanted; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    seen = await check();
  }
  return seen;
}
