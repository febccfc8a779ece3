import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/server/db/client.ts";
import { posts, users } from "../../../src/server/db/schema.ts";
import { insertCategory, insertPost, insertUser } from "../../support/builders.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-process-"));
const children: ChildProcess[] = [];

interface Started {
  child: ChildProcess;
  url: string;
}

/** Runs the real entry point the way production does; resolves once it listens, rejects if it exits first. */
function startServer(): Promise<Started> {
  // Node itself, as `npm start` runs it: a wrapper such as tsx relays signals and may answer 143 for the server.
  const child = spawn(path.join(ROOT, "node_modules/.bin/node"), ["src/server/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: "0", RPC_URL: "http://127.0.0.1:9", LOG_LEVEL: "info" },
  });
  children.push(child);
  let output = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = output.match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
      if (match?.[1]) resolve({ child, url: match[1] });
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => reject(Object.assign(new Error(`server exited with ${code}`), { code, output })));
  });
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });

afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the server process", () => {
  it("owns its data folder alone and leaves it usable after SIGTERM", async () => {
    const first = await startServer();
    const health = await fetch(`${first.url}/api/health`);
    expect((await health.json()).database).toBe("ok");

    const second = await startServer().then(
      () => null,
      (error: { code: number; output: string }) => error,
    );
    expect(second?.code).toBe(1);
    expect(second?.output).toMatch(/in use by another Penchain server \(pid \d+\)/);
    // The refused start must not have disturbed the running server.
    expect((await fetch(`${first.url}/api/health`)).status).toBe(503);

    first.child.kill("SIGTERM");
    expect(await exitOf(first.child)).toBe(0);
    expect(fs.existsSync(path.join(dataDir, "penchain.lock"))).toBe(false);

    // The folder opens cleanly, keeps what is written, and a new server starts on it.
    const database = await openDatabase({ dataDir });
    await insertUser(database.db, { email: "kept@example.com" });
    await database.close();

    const third = await startServer();
    expect((await (await fetch(`${third.url}/api/health`)).json()).database).toBe("ok");
    third.child.kill("SIGINT");
    expect(await exitOf(third.child)).toBe(0);

    const reopened = await openDatabase({ dataDir });
    const rows = await reopened.db.select({ email: users.email }).from(users);
    // Zeroing PostgreSQL's default 128 MB of shared buffers was 0.4 s of every start: the folder is opened with 32 MB.
    const buffers = (await reopened.db.execute(sql`show shared_buffers`)) as { rows: unknown[] };
    await reopened.close();
    expect(rows).toEqual([{ email: "kept@example.com" }]);
    expect(buffers.rows).toEqual([{ shared_buffers: "32MB" }]);
  }, 90_000);

  it("writes the post views it still holds when stopped with SIGTERM", async () => {
    const database = await openDatabase({ dataDir });
    const author = await insertUser(database.db);
    const category = await insertCategory(database.db, author.id);
    const post = await insertPost(database.db, { userId: author.id, categoryId: category.id });
    await database.close();

    const server = await startServer();
    expect((await fetch(`${server.url}/api/posts/${post.id}`)).status).toBe(200);
    // Stopped at once: the view is still in the buffer, which flushes once a second.
    server.child.kill("SIGTERM");
    expect(await exitOf(server.child)).toBe(0);

    const reopened = await openDatabase({ dataDir });
    const [row] = await reopened.db.select({ numViews: posts.numViews }).from(posts).where(eq(posts.id, post.id));
    await reopened.close();
    expect(row?.numViews).toBe(1);
  }, 60_000);
});
