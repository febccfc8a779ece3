/**
 * `npm run api:client`: writes clients/typescript/openapi.json from the routes and generates the typed client in
 * clients/typescript/src from it. `-- --check [dir]` changes nothing and fails if the committed ones are not what
 * the routes give now (test/integration/api-client.test.ts runs it).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createClient } from "@hey-api/openapi-ts";
import { buildDocument } from "./openapi.ts";

const check = process.argv.includes("--check");
const dir = process.argv.slice(2).find((arg) => !arg.startsWith("--")) ?? "clients/typescript";

const fresh = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-client-"));
try {
  fs.writeFileSync(path.join(fresh, "openapi.json"), `${JSON.stringify(await buildDocument(), null, 2)}\n`);
  await createClient({
    input: path.join(fresh, "openapi.json"),
    output: { path: path.join(fresh, "src"), importFileExtension: ".ts" },
    plugins: ["@hey-api/client-fetch", "@hey-api/typescript", "@hey-api/sdk"],
    logs: { level: "silent" },
  });
  const files = (root: string) =>
    fs.existsSync(root)
      ? (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
          .filter((entry) => entry.isFile())
          .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
          .sort()
      : [];
  const generated = ["openapi.json", ...files(path.join(fresh, "src")).map((file) => path.join("src", file))];
  if (check) {
    const committed = ["openapi.json", ...files(path.join(dir, "src")).map((file) => path.join("src", file))];
    const stale = [...new Set([...generated, ...committed])].filter((file) => {
      const a = path.join(fresh, file);
      const b = path.join(dir, file);
      return !fs.existsSync(a) || !fs.existsSync(b) || !fs.readFileSync(a).equals(fs.readFileSync(b));
    });
    if (stale.length > 0) {
      console.error(`The client in ${dir} is older than the routes (${stale.join(", ")}): run npm run api:client.`);
      process.exitCode = 1;
    }
  } else {
    fs.rmSync(path.join(dir, "src"), { recursive: true, force: true });
    for (const file of generated) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.copyFileSync(path.join(fresh, file), path.join(dir, file));
    }
  }
} finally {
  fs.rmSync(fresh, { recursive: true, force: true });
}
