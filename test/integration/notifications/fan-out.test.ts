import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import type { Database } from "../../../src/server/db/client.ts";
import { buildTestApp, keepOpen, TEST_JWT_SECRET } from "../../support/app.ts";
import { databaseTargets } from "../../support/databases.ts";
import { type SmtpServer, startSmtpServer } from "../../support/smtp.ts";
import { buildRegistration } from "../../support/users.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const FOLLOWERS = 2000;
const postgres = databaseTargets.find((target) => target.name === "postgres");
const children: ChildProcess[] = [];

/** The real server in a process of its own, on `databaseUrl`, sending through `smtpUrl`; resolves once it listens. */
function startProcess(databaseUrl: string, smtpUrl: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-fan-out-"));
  const child = spawn(path.join(ROOT, "node_modules/.bin/node"), ["src/server/main.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: "0",
      DATABASE_URL: databaseUrl,
      SMTP_URL: smtpUrl,
      MAIL_LEASE_MS: "3000",
      JWT_SECRET: TEST_JWT_SECRET,
      PUBLIC_URL: "http://penchain.test",
      RPC_URL: "http://127.0.0.1:9",
      RATE_LIMIT_FACTOR: "100",
    },
  });
  children.push(child);
  let output = "";
  return new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = output.match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
}

const until = async (done: () => boolean | Promise<boolean>, ms: number, what: string) => {
  for (let waited = 0; waited < ms; waited += 100) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
};

afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
});

describe.skipIf(!postgres)("a new post to thousands of followers, on PostgreSQL", () => {
  let smtp: SmtpServer;
  let database: Database & { url?: string };
  let survivor: App;
  afterAll(async () => {
    await survivor?.close();
    await database?.close();
    await smtp?.close();
  });

  it("sends each follower exactly one mail with two instances draining one outbox, one killed half-way", async () => {
    smtp = await startSmtpServer(0, { delayMs: 2 });
    database = await (postgres as NonNullable<typeof postgres>).open();
    survivor = await buildTestApp(keepOpen(database), { env: { SMTP_URL: smtp.url, MAIL_LEASE_MS: "3000" } });
    const doomedUrl = await startProcess(database.url as string, smtp.url);

    // The author registers through the doomed instance; the followers are written straight into the database.
    const registration = buildRegistration({ firstName: "Popular" });
    const call = async (route: string, body: unknown, token?: string) => {
      const response = await fetch(`${doomedUrl}${route}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      return response.json();
    };
    await call("/api/users/register", registration);
    const author = await call("/api/users/login", { email: registration.email, password: registration.password });
    await survivor.db.execute(sql`
      with fans as (
        insert into users (first_name, last_name, handle, email, password_hash, is_account_verified)
        select 'Fan', n::text, 'fan-' || n, 'fan-' || n || '@example.com', 'not-a-real-hash', true
        from generate_series(1, ${FOLLOWERS}) n
        returning id)
      insert into follows (follower_id, followee_id) select id, ${author.id}::uuid from fans`);
    await survivor.db.execute(sql`insert into categories (title, user_id) values ('Fans', ${author.id}::uuid)`);

    const post = await call(
      "/api/posts",
      { title: "For everyone", description: "<p>Hello</p>", category: "Fans", isFeatured: false },
      author.token,
    );
    expect(post.status).toBe("published");
    // The doomed instance drains first; half-way through it is killed without a word.
    await until(() => smtp.received.length >= FOLLOWERS / 4, 60_000, "the first mails");
    children.at(-1)?.kill("SIGKILL");
    const sentBeforeKill = smtp.received.length;
    expect(sentBeforeKill).toBeLessThan(FOLLOWERS);

    // The survivor takes over what is left, including what the dead instance held when its lease runs out.
    await until(
      async () => {
        survivor.mailer.drain();
        return (await survivor.mailer.counts()).queued === 0;
      },
      60_000,
      "the outbox to drain",
    );
    const ids = new Map<string, Set<string>>();
    for (const mail of smtp.received) {
      const to = mail.to[0] as string;
      const id = /^Message-ID: (<[^>]+>)/im.exec(mail.raw)?.[1] ?? "";
      ids.set(to, new Set([...(ids.get(to) ?? []), id]));
    }
    expect(ids.size).toBe(FOLLOWERS);
    // One message each: a mail the dead instance was sending may arrive twice, as the same message.
    expect([...ids.values()].every((set) => set.size === 1)).toBe(true);
    expect(smtp.received.length - FOLLOWERS).toBeLessThanOrEqual(3);
  }, 180_000);
});
