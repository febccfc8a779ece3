import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const url = (file: string) => JSON.stringify(pathToFileURL(path.join(ROOT, file)).href);

/**
 * The packages a fresh Node loads while it starts the server with `env` as `npm start` does, on PGlite in a temporary
 * folder, and stops it again: the bare specifiers it resolves for ES modules (read by a module resolution hook) and
 * the packages of the CommonJS modules it has required (its module cache, which that hook does not see).
 */
function packagesLoadedByStart(env: Record<string, string>): string[] {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-lazy-"));
  try {
    const hook = path.join(folder, "hook.mjs");
    fs.writeFileSync(
      hook,
      `export async function resolve(specifier, context, next) {
  if (!/^[.\\/]|^node:|^file:/.test(specifier)) console.log("RESOLVED " + specifier);
  return next(specifier, context);
}`,
    );
    const register = path.join(folder, "register.mjs");
    fs.writeFileSync(
      register,
      `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`,
    );
    const config = { DATA_DIR: path.join(folder, "data"), PORT: "0", RPC_URL: "http://127.0.0.1:9", ...env };
    const start = `const { loadConfig } = await import(${url("src/server/env.ts")});
const { startServer } = await import(${url("src/server/main.ts")});
const { app } = await startServer(loadConfig(${JSON.stringify(config)}));
await app.close();
const { createRequire } = await import("node:module");
for (const file of Object.keys(createRequire(process.cwd() + "/").cache)) console.log("REQUIRED " + file);`;
    const result = spawnSync(process.execPath, ["--import", register, "--input-type=module", "-e", start], {
      cwd: ROOT,
      encoding: "utf8",
      env: { PATH: process.env.PATH, LOG_LEVEL: "warn" },
    });
    expect(result.status, result.stderr).toBe(0);
    const resolved = [...result.stdout.matchAll(/^RESOLVED (.+)$/gm)].map((match) => match[1] as string);
    const required = [...result.stdout.matchAll(/^REQUIRED .*node_modules\/((?:@[^/]+\/)?[^/]+)\/.*$/gm)];
    return [...new Set([...resolved, ...required.map((match) => match[1] as string)])];
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

const OPTIONAL = [
  "@fedify/fedify",
  "viem/chains",
  "sharp",
  "ioredis",
  "pg",
  "nodemailer",
  "tldts",
  "@modelcontextprotocol/sdk",
  "undici",
  "turndown",
];

// Fedify is about 45 MiB of memory and 0.4 s of start-up, viem's table of every chain about 20 MiB and 0.2 s, sharp
// (libvips) about 9 MiB, nodemailer about 5 MiB, ioredis and each database driver a few, undici and Turndown 0.15 s
// of start-up: a server that does not federate, runs on Hardhat's chain, has not yet been sent an image nor sent a
// mail, delivered a webhook or written an archive and has no Redis loads none of them, and only the driver of its
// database (the memory target of docs/performance.md).
describe("what the server loads only when it needs it", { timeout: 60_000 }, () => {
  it("starts without Fedify, viem's chains, sharp, nodemailer, ioredis, undici, Turndown or the driver it does not use", () => {
    const loaded = packagesLoadedByStart({ FEDERATION: "off" });
    expect(loaded).toContain("@electric-sql/pglite");
    expect(loaded.filter((name) => OPTIONAL.includes(name))).toEqual([]);
  });

  it("loads Fedify, viem's chains and ioredis when the site federates, runs on another chain and has Redis", () => {
    const loaded = packagesLoadedByStart({
      FEDERATION: "on",
      CHAIN_ID: "11155111",
      FEE_RECIPIENT: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      REDIS_URL: "redis://127.0.0.1:9",
    });
    expect(loaded).toEqual(expect.arrayContaining(["@fedify/fedify", "viem/chains", "ioredis"]));
    expect(loaded).not.toContain("sharp");
    // The Public Suffix List waits for the first report from another server.
    expect(loaded).not.toContain("tldts");
  });
});
