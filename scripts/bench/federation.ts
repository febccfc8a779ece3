// Federation under failure, for `npm run bench` (issue 21): an author with 1,000 fediverse followers on 100 inboxes
// publishes while two instances share the delivery queue; one instance is killed (SIGKILL, no goodbye) half-way.
// A counting peer on loopback records what each inbox got: every inbox must get the post, within 60 s, once.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { loadConfig } from "../../src/server/env.ts";
import { startServer } from "../../src/server/main.ts";
import { READY_MARK, startServerProcess } from "../lib/run.ts";
import { dropScratchPostgres } from "../lib/scratch-postgres.ts";
import { startScratchServer } from "../lib/scratch-server.ts";

const FOLLOWERS = 1_000;
const INBOXES = 100;
const DEADLINE_MS = 60_000;
/** A dead instance's deliveries are taken over after this (FEDERATION_LEASE_MS). */
const LEASE_MS = 10_000;

export interface FederationSite {
  url: string;
  pid: number;
  databaseUrl: string;
  authorToken: string;
  category: string;
}

const federationEnv = (peer: string) => ({
  FEDERATION: "on",
  // Both instances are one site: the same public address, whatever port each listens on.
  PUBLIC_URL: "http://127.0.0.1:1",
  FEDERATION_LEASE_MS: String(LEASE_MS),
  LOG_LEVEL: "warn",
  RATE_LIMIT_FACTOR: "1000",
  BENCH_PEER: peer,
});

/** The first instance: seeds the author and their 1,000 followers on the peer's 100 inboxes, and serves. */
export async function serveFederation(peer: string) {
  const { app, url, serveUntilStopped } = await startScratchServer(
    "federation",
    process.env.BENCH_DATABASE_URL,
    federationEnv(peer),
  );
  const rows = async <Row>(query: ReturnType<typeof sql>) =>
    ((await app.db.execute(query)) as unknown as { rows: Row[] }).rows;
  const [author] = await rows<{ id: string }>(sql`
    insert into users (first_name, last_name, handle, email, password_hash, is_account_verified)
    values ('Fedi', 'Author', 'fedi-author', 'fedi@bench.example.com', 'not-a-hash', true) returning id`);
  if (!author) throw new Error("seeding failed");
  await app.db.execute(sql`insert into categories (title, user_id) values ('Fediverse', ${author.id})`);
  await app.db.execute(sql`
    insert into remote_followers (actor, follower_uri, inbox, domain)
    select ${author.id}, ${peer} || '/users/' || g, ${peer} || '/inbox/' || (g % ${INBOXES}), '127.0.0.1'
    from generate_series(1, ${FOLLOWERS}) g`);
  serveUntilStopped({
    url,
    authorToken: await app.tokens.sign({ id: author.id, tokenVersion: 0 }),
    category: "Fediverse",
    databaseUrl: app.config.databaseUrl as string,
  } satisfies Omit<FederationSite, "pid">);
}

/** A second instance on the first one's database. */
export async function joinFederation(peer: string, databaseUrl: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-federation-2-"));
  const { url } = await startServer(
    loadConfig({
      HOST: "127.0.0.1",
      PORT: "0",
      RPC_URL: "http://127.0.0.1:9",
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      ...federationEnv(peer),
    }),
  );
  process.once("SIGTERM", () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
  process.stdout.write(`${READY_MARK}${JSON.stringify({ url, pid: process.pid })}\n`);
}

/** A peer that answers every inbox with 202 and counts, per inbox, the activities it got and how often. */
async function countingPeer() {
  const got = new Map<string, Map<string, number>>();
  let posts = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method === "POST" && request.url?.startsWith("/inbox/")) {
        posts += 1;
        const activity = JSON.parse(Buffer.concat(chunks).toString()) as { id?: string; type?: string };
        const seen = got.get(request.url) ?? new Map<string, number>();
        const key = `${activity.type} ${activity.id}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
        got.set(request.url, seen);
      }
      response.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    got,
    posts: () => posts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The orchestrating side: prints how long the deliveries took and how often each inbox got the post. */
export async function benchFederation(script: string) {
  const misses: string[] = [];
  if (!process.env.BENCH_DATABASE_URL) {
    console.log("\nFederation: two instances need a shared PostgreSQL (BENCH_DATABASE_URL); skipped");
    return misses;
  }
  const peer = await countingPeer();
  const first = await startServerProcess<FederationSite>(script, { BENCH_PEER: peer.url }, "--federation");
  const second = await startServerProcess<{ url: string }>(
    script,
    { BENCH_PEER: peer.url, BENCH_SHARED_DATABASE: first.info.databaseUrl },
    "--federation-join",
  );
  try {
    console.log(
      `\nFederation: an author with ${FOLLOWERS.toLocaleString("en")} fediverse followers on ${INBOXES} inboxes publishes; two instances, one killed half-way`,
    );
    const start = performance.now();
    const published = await fetch(`${first.info.url}/api/posts`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${first.info.authorToken}` },
      body: JSON.stringify({
        title: "To the fediverse",
        description: "<p>Hello, fediverse</p>",
        category: first.info.category,
        isFeatured: false,
      }),
    });
    if (published.status !== 201) throw new Error(`publishing failed: ${await published.text()}`);
    while (peer.got.size < INBOXES / 2 && performance.now() - start < DEADLINE_MS)
      await new Promise((r) => setTimeout(r, 5));
    first.child.kill("SIGKILL");
    const killedAt = peer.got.size;
    while (peer.got.size < INBOXES && performance.now() - start < DEADLINE_MS * 2)
      await new Promise((r) => setTimeout(r, 50));
    const allMs = performance.now() - start;
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 2_000));
    const creates = [...peer.got.values()].map((seen) =>
      [...seen].filter(([key]) => key.startsWith("Create ")).reduce((sum, [, n]) => sum + n, 0),
    );
    const once = creates.filter((n) => n === 1).length;
    const distinct = [...peer.got.values()].filter(
      (seen) => [...seen.keys()].filter((key) => key.startsWith("Create ")).length === 1,
    ).length;
    const repeated = creates.reduce((sum, n) => sum + Math.max(0, n - 1), 0);
    console.log(
      `every inbox reached in ${(allMs / 1000).toFixed(1)} s (${killedAt} before the kill); ${distinct} of ${INBOXES} inboxes got the post under one activity id; ${once} in a single delivery, ${repeated} delivery repeated (made by the killed instance just before it died, so sent again after its lease: receivers drop it by its id)`,
    );
    if (peer.got.size < INBOXES || allMs > DEADLINE_MS)
      misses.push("federation: not every inbox was reached within 60 s");
    if (distinct !== INBOXES) misses.push("federation: an inbox got the post under two ids, or not at all");
  } finally {
    first.child.kill("SIGKILL");
    second.child.kill("SIGTERM");
    if (second.child.exitCode === null) await new Promise((resolve) => second.child.once("exit", resolve));
    // The first instance was killed before it could drop its database.
    await dropScratchPostgres(process.env.BENCH_DATABASE_URL, first.info.databaseUrl);
    await peer.close();
  }
  return misses;
}
