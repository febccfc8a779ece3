import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * The packages Node resolves while it loads `entry` as the server does (its own type stripping), read by a module
 * resolution hook in a fresh process.
 */
function packagesLoadedBy(entry: string): string[] {
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
    const result = spawnSync(
      process.execPath,
      [
        "--import",
        register,
        "--input-type=module",
        "-e",
        `await import(${JSON.stringify(pathToFileURL(path.join(ROOT, entry)).href)});`,
      ],
      { cwd: ROOT, encoding: "utf8" },
    );
    expect(result.status, result.stderr).toBe(0);
    return [...result.stdout.matchAll(/^RESOLVED (.+)$/gm)].map((match) => match[1] as string);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

// Fedify is about 45 MiB of memory and 0.4 s of start-up, viem's table of every chain about 20 MiB and 0.2 s, sharp
// (libvips) about 9 MiB, ioredis and each database driver a few: a server that does not federate, runs on Hardhat's
// chain, has not yet been sent an image and has no Redis loads none of them, and it loads only the driver of its
// database (issue 19's memory target).
describe("what the server loads only when it needs it", { timeout: 60_000 }, () => {
  it("starts without Fedify, viem's chains, sharp, ioredis or a database driver", () => {
    const loaded = packagesLoadedBy("src/server/main.ts");
    expect(loaded).toContain("fastify");
    expect(
      loaded.filter((name) =>
        ["@fedify/fedify", "viem/chains", "sharp", "ioredis", "@electric-sql/pglite", "pg"].includes(name),
      ),
    ).toEqual([]);
  });

  it("sees Fedify where it is loaded: the federator, which app.ts imports when the site federates", () => {
    expect(packagesLoadedBy("src/server/services/federation/federation.ts")).toContain("@fedify/fedify");
  });
});
