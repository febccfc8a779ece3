import { execFile } from "node:child_process";
import { webcrypto } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GENESIS_HASH, hashEntry, headMessage, latestMessage } from "#shared/moderation-log.ts";
import type { LogExport } from "#shared/schemas/moderation.ts";
import type { App } from "../../../src/server/app.ts";
import { buildTestApp } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../../..");

/** `npm run verify-log -- …` as a user runs it: its exit code and what it printed. */
async function verifyLog(...args: string[]) {
  try {
    const { stdout } = await run(process.execPath, [path.join(ROOT, "scripts/verify-log.ts"), ...args], { cwd: ROOT });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: `${failed.stdout}${failed.stderr}` };
  }
}

/** The log rewritten (one rule's title changed) and signed again, whole, with a key of the forger's own. */
async function forged(log: LogExport): Promise<LogExport> {
  const pair = (await webcrypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const sign = async (message: string) =>
    Buffer.from(await webcrypto.subtle.sign("Ed25519", pair.privateKey, new TextEncoder().encode(message))).toString(
      "base64url",
    );
  let prevHash = GENESIS_HASH;
  const entries = [];
  for (const entry of log.entries) {
    const unhashed = { ...entry, rule: entry.seq === 1 ? "Nothing happened" : entry.rule, prevHash };
    const rewritten = { ...unhashed, hash: await hashEntry(unhashed) };
    entries.push(rewritten);
    prevHash = rewritten.hash;
  }
  const last = entries.at(-1);
  const head = { day: String(last?.at.slice(0, 10)), seq: Number(last?.seq), hash: prevHash };
  const latest = { at: new Date().toISOString(), seq: head.seq, hash: prevHash };
  const { kty, crv, x } = (await webcrypto.subtle.exportKey("jwk", pair.publicKey)) as Required<JsonWebKey>;
  return {
    entries,
    heads: [{ ...head, signature: await sign(headMessage(head)) }],
    publicKey: { kty, crv, x },
    latest: { ...latest, signature: await sign(latestMessage(latest)) },
  };
}

// Each check starts a node process of its own.
const SCRIPT_RUNS = 120_000;

describe.each(databaseTargets)("verify-log, run as a user runs it, on $name", (target) => {
  let app: App;
  let site: string;
  let dir: string;
  let category: string;
  let admin: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    app = await buildTestApp(await target.open(), { env: { FEDERATION: "on" } });
    site = await app.listen({ host: "127.0.0.1", port: 0 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-log-"));
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
    category = (await createCategory(app, admin)).title;
    await decide(3);
  }, SCRIPT_RUNS);
  afterAll(async () => {
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function decide(times: number) {
    const author = await signUp(app);
    for (let index = 0; index < times; index++) {
      const post = await createPost(app, author, category);
      const acted = await app.inject({
        method: "POST",
        url: "/api/moderation/actions",
        headers: bearer(admin),
        payload: { target: { kind: "post", id: post.id }, action: "hide", rule: "spam", note: "" },
      });
      expect(acted.statusCode).toBe(200);
    }
  }
  async function exported(name: string, change: (log: LogExport) => LogExport | Promise<LogExport> = (log) => log) {
    const response = await fetch(new URL("/api/moderation/log/export", site));
    expect(response.status).toBe(200);
    const file = path.join(dir, name);
    fs.writeFileSync(file, JSON.stringify(await change((await response.json()) as LogExport)));
    return file;
  }

  it(
    "passes a whole export, from a file and from the site, whose actor publishes the key",
    async () => {
      const file = await exported("whole.json");
      expect(await verifyLog(file)).toMatchObject({ code: 0, output: expect.stringMatching(/pass --site or --since/) });
      expect(await verifyLog(site)).toMatchObject({ code: 0, output: expect.stringMatching(/the key .* publishes/) });
      expect(await verifyLog(file, "--site", site)).toMatchObject({ code: 0 });
    },
    SCRIPT_RUNS,
  );

  it(
    "refuses an export whose newest entries were cut with their signed head",
    async () => {
      const cut = (log: LogExport) => ({
        ...log,
        entries: log.entries.slice(0, -1),
        heads: log.heads.filter((head) => head.seq < log.entries.length),
      });
      const kept = await verifyLog(await exported("cut.json", cut));
      expect(kept).toMatchObject({ code: 1, output: expect.stringMatching(/not its newest/) });
      const stripped = await verifyLog(await exported("stripped.json", (log) => ({ ...cut(log), latest: undefined })));
      expect(stripped).toMatchObject({ code: 1, output: expect.stringMatching(/no signed head covers/) });
    },
    SCRIPT_RUNS,
  );

  it(
    "refuses a log rewritten and signed again with another key, given the site or an export saved before",
    async () => {
      const saved = await exported("saved.json");
      const file = await exported("forged.json", forged);
      expect(await verifyLog(file, "--site", site)).toMatchObject({
        code: 1,
        output: expect.stringMatching(/another key/),
      });
      expect(await verifyLog(file, "--since", saved)).toMatchObject({
        code: 1,
        output: expect.stringMatching(/another key than the saved export/),
      });
    },
    SCRIPT_RUNS,
  );

  it(
    "--since passes a log that grew from the saved one, and refuses one that lost entries since",
    async () => {
      const saved = await exported("before.json");
      await decide(2);
      const grown = await exported("after.json");
      expect(await verifyLog(grown, "--since", saved)).toMatchObject({
        code: 0,
        output: expect.stringMatching(/prefix/),
      });
      expect(await verifyLog(site, "--since", saved)).toMatchObject({ code: 0 });
      expect(await verifyLog(saved, "--since", grown)).toMatchObject({
        code: 1,
        output: expect.stringMatching(/fewer than the \d+ saved/),
      });
    },
    SCRIPT_RUNS,
  );
});
