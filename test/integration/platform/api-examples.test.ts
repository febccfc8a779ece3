import { execFile } from "node:child_process";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { buildTestApp } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { pgliteTarget } from "../../support/databases.ts";
import { makeAdmin, signUp } from "../../support/users.ts";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../../..");
const guide = fs.readFileSync(path.join(root, "docs/api.md"), "utf8");

/** The fenced blocks of docs/api.md whose info string is `info` (`sh`, `ts client`, …), in order. */
function blocksOf(markdown: string, info: string): string[] {
  return [...markdown.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)]
    .filter(([, blockInfo]) => blockInfo?.trim() === info)
    .map(([, , code]) => code as string);
}

let app: App;
let site: string;
let author: { email: string; password: string };
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-api-examples-"));

beforeAll(async () => {
  app = await buildTestApp(await pgliteTarget.open());
  await app.listen({ host: "127.0.0.1", port: 0 });
  site = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const admin = await signUp(app);
  await makeAdmin(app, admin.id);
  const category = await createCategory(app, admin);
  for (const title of ["First", "Second", "Third"]) await createPost(app, admin, category.title, { title });
  const email = `author-${Date.now()}@example.com`;
  const writer = await signUp(app, { email });
  await createPost(app, writer, category.title, { title: "Unfinished", status: "draft" });
  author = { email, password: writer.password };
});
afterAll(async () => {
  await app.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** Runs a TypeScript example as a reader would, with its imports of the repository made absolute. */
async function runTypeScript(name: string, code: string, env: Record<string, string> = {}) {
  const file = path.join(scratch, `${name}.ts`);
  fs.writeFileSync(file, code.replaceAll('from "../', `from "${root}/`));
  const { stdout } = await run(process.execPath, [file], { env: { ...process.env, ...env }, timeout: 60_000 });
  return stdout;
}

it("runs the curl examples against a real server", async () => {
  const script = ["set -euo pipefail", ...blocksOf(guide, "sh")].join("\n");
  expect(script).toContain("curl");
  const { stdout } = await run("bash", ["-c", script], { env: { ...process.env, PENCHAIN: site }, timeout: 60_000 });
  expect(stdout.trim().split("\n")).toEqual(["Penchain API", "0", "Not authorized: please log in.", "email", "2", "1"]);
});

it("runs the TypeScript example with the generated client", async () => {
  const [example] = blocksOf(guide, "ts client");
  const stdout = await runTypeScript("client", example as string, {
    PENCHAIN: site,
    PENCHAIN_EMAIL: author.email,
    PENCHAIN_PASSWORD: author.password,
  });
  expect(stdout.trim().split("\n")).toEqual([
    "Third",
    "Second",
    "First",
    "Third",
    "401 Not authorized: please log in.",
    "drafts: 1",
  ]);
});

it("verifies a Standard Webhooks signature with the page's example, and refuses a forged one", async () => {
  const [example] = blocksOf(guide, "ts webhook");
  // Standard Webhooks' own test vector.
  const harness = `
const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const headers = {
  "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
  "webhook-timestamp": "1614265330",
  "webhook-signature": "v1,bm9ldHUjKzFob2VudXRob2VodWUzMjRvdWVvdW9ldQo= v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};
const body = '{"test": 2432232314}';
const then = 1614265330 * 1000;
console.log(verifyWebhook(secret, headers, body, then));
console.log(verifyWebhook(secret, headers, body.replace("2", "3"), then));
console.log(verifyWebhook(secret, headers, body, then + 10 * 60_000));
console.log(verifyWebhook(secret, { ...headers, "webhook-signature": "v1,g0hM9SsE" }, body, then));
`;
  const stdout = await runTypeScript("webhook", `${example}\n${harness}`);
  expect(stdout.trim().split("\n")).toEqual(["true", "false", "false", "false"]);
});
