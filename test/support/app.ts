import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildApp } from "../../src/server/app.ts";
import type { Database } from "../../src/server/db/client.ts";
import { loadConfig } from "../../src/server/env.ts";

/** Builds the real app on the given database; an unused port stands in for the chain unless `rpcUrl` is given. */
export async function buildTestApp(database: Database, overrides: Record<string, string> = {}, clientDir?: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-test-"));
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    JWT_SECRET: "test-secret-that-is-long-enough-for-tests-0123456789",
    RPC_URL: "http://127.0.0.1:9",
    ...overrides,
  });
  const app = await buildApp({
    config,
    database,
    logger: false,
    clientDir: clientDir ?? path.join(dataDir, "no-client"),
  });
  app.addHook("onClose", () => fs.rmSync(dataDir, { recursive: true, force: true }));
  return app;
}
