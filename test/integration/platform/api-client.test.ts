import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../../..");
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-client-check-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** `npm run api:client -- --check [dir]`: its exit code and what it said. */
const check = (dir?: string) =>
  run(
    process.execPath,
    ["--import", "./scripts/lib/typescript5.ts", "scripts/api-client.ts", "--check", ...(dir ? [dir] : [])],
    {
      cwd: root,
      timeout: 120_000,
    },
  ).then(
    () => ({ code: 0, stderr: "" }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );

it("has the committed document and client generated from the routes as they are", async () => {
  expect(await check()).toEqual({ code: 0, stderr: "" });

  // A client one operation behind: the check names the file.
  const stale = path.join(scratch, "typescript");
  fs.cpSync(path.join(root, "clients/typescript"), stale, { recursive: true });
  const sdk = path.join(stale, "src/sdk.gen.ts");
  fs.writeFileSync(sdk, fs.readFileSync(sdk, "utf8").replace("export const listPosts", "export const listPostz"));
  const refused = await check(stale);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("src/sdk.gen.ts");
  expect(refused.stderr).toContain("npm run api:client");
}, 240_000);
