import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { esmPackageRoot, resolveWithin } from "../../scripts/lib/drizzle-resolve.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const url = (file: string) => JSON.stringify(pathToFileURL(path.join(ROOT, file)).href);
// Every drizzle-orm entry point the server imports, on either database.
const ENTRIES = [
  "drizzle-orm",
  "drizzle-orm/pg-core",
  "drizzle-orm/pglite",
  "drizzle-orm/pglite/migrator",
  "drizzle-orm/node-postgres",
  "drizzle-orm/node-postgres/migrator",
];

/** Runs `script` as an ES module in a fresh Node at the project's root; answers what it printed as JSON. */
function inNode(script: string) {
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

describe("npm start's resolution of drizzle-orm's own files", { timeout: 60_000 }, () => {
  const root = esmPackageRoot("drizzle-orm", path.join(ROOT, "package.json")) as string;

  it("finds the installed package, made of ES modules", () => {
    expect(root).toBe(pathToFileURL(path.join(ROOT, "node_modules/drizzle-orm/")).href);
    expect(esmPackageRoot("fastify", path.join(ROOT, "package.json"))).toBeUndefined();
  });

  it("answers what Node answers, for every file the server's drizzle-orm imports load", () => {
    // Node resolves each import; the hook's answer for the same import is set beside it.
    const { handled, differing } = inNode(`
      import { registerHooks } from "node:module";
      const { resolveWithin } = await import(${url("scripts/lib/drizzle-resolve.ts")});
      const root = ${JSON.stringify(root)};
      let handled = 0;
      const differing = [];
      registerHooks({
        resolve(specifier, context, nextResolve) {
          const node = nextResolve(specifier, context);
          const ours = resolveWithin(root, specifier, context.parentURL);
          if (ours) {
            handled += 1;
            if (ours.url !== node.url || ours.format !== node.format) differing.push({ specifier, ours, node });
          }
          return node;
        },
      });
      for (const entry of ${JSON.stringify(ENTRIES)}) await import(entry);
      console.log(JSON.stringify({ handled, differing }));`);
    expect(differing).toEqual([]);
    expect(handled).toBeGreaterThan(200);
  });

  it("leaves Node every other import", () => {
    const parent = `${root}pg-core/table.js`;
    expect(resolveWithin(root, "./columns/index.js", parent)?.url).toBe(`${root}pg-core/columns/index.js`);
    expect(resolveWithin(root, "../table.js", parent)?.url).toBe(`${root}table.js`);
    // Bare names, other packages' files, imports that leave the package, and files that are not `.js`.
    expect(resolveWithin(root, "pg", parent)).toBeUndefined();
    expect(resolveWithin(root, "./index.js", pathToFileURL(path.join(ROOT, "node_modules/zod/index.js")).href)).toBe(
      undefined,
    );
    expect(resolveWithin(root, "../../zod/index.js", parent)).toBeUndefined();
    expect(resolveWithin(root, "./table.cjs", parent)).toBeUndefined();
    expect(resolveWithin(root, "./table.js", undefined)).toBeUndefined();
  });

  it("is what npm start registers, and the server's database modules load through it", () => {
    const { loaded } = inNode(`
      const { registerDrizzleResolve } = await import(${url("scripts/lib/drizzle-resolve.ts")});
      registerDrizzleResolve();
      const { openDatabase } = await import(${url("src/server/db/client.ts")});
      const database = await openDatabase({});
      await database.migrate();
      const { rows } = await database.db.execute("select count(*)::int as n from posts");
      await database.close();
      console.log(JSON.stringify({ loaded: rows[0].n === 0 }));`);
    expect(loaded).toBe(true);
    // Registered before the server's modules are imported.
    const start = fs.readFileSync(path.join(ROOT, "scripts/start.ts"), "utf8");
    expect(start.indexOf("registerDrizzleResolve();")).toBeGreaterThan(-1);
    expect(start.indexOf("registerDrizzleResolve();")).toBeLessThan(start.indexOf('import("../src/server/main.ts")'));
  });
});
