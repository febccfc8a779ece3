/**
 * The OpenAPI document as the app serves it, written to a file: `node scripts/openapi.ts <file>`. It builds the app
 * on an empty in-memory database (nothing is read) with a fixed public address, so the file depends on the code alone.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildApp } from "../src/server/app.ts";
import { openDatabase } from "../src/server/db/client.ts";
import { loadConfig } from "../src/server/env.ts";
import { OPENAPI_PATH } from "../src/server/plugins/docs.ts";

/** The address the committed document and client name; a running site serves its own PUBLIC_URL. */
export const DOCUMENT_SERVER = "https://penchain.example";

export async function buildDocument(): Promise<object> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-openapi-"));
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    PUBLIC_URL: DOCUMENT_SERVER,
    JWT_SECRET: "openapi-document-only-secret-0123456789abcdef",
    RPC_URL: "http://127.0.0.1:9",
  });
  const app = await buildApp({ config, database: await openDatabase({}), logger: false, clientDir: dataDir });
  try {
    return (await app.inject({ method: "GET", url: OPENAPI_PATH })).json();
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const target = process.argv[2];
  if (!target) throw new Error("usage: node scripts/openapi.ts <file>");
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, `${JSON.stringify(await buildDocument(), null, 2)}\n`);
}
