import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../../src/server/env.ts";
import { startServer } from "../../src/server/main.ts";
import { READY_MARK } from "./run.ts";
import { scratchPostgres } from "./scratch-postgres.ts";

/**
 * The real server on 127.0.0.1 over a fresh database, for benchmarks: PGlite in a temporary folder, or a scratch
 * database on the PostgreSQL server `databaseUrl` names. No chain. `serveUntilStopped` prints what the load needs
 * and removes everything on SIGTERM.
 */
export async function startScratchServer(name: string, databaseUrl: string | undefined, env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `penchain-${name}-`));
  const postgres = databaseUrl ? await scratchPostgres(databaseUrl, `penchain_${name}`) : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    HOST: "127.0.0.1",
    PORT: "0",
    RPC_URL: "http://127.0.0.1:9",
    DATABASE_URL: postgres?.url,
    ...env,
  });
  const { app, url } = await startServer(config);
  return {
    app,
    url,
    /** Prints `info` (and this process's id, whose memory the caller may read) for the caller, and serves. */
    serveUntilStopped(info: object) {
      process.stdout.write(`${READY_MARK}${JSON.stringify({ ...info, pid: process.pid })}\n`);
      process.once("SIGTERM", async () => {
        await app.close();
        await postgres?.drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      });
    },
  };
}
