// The webhook fan-out, for `npm run bench`: an author with 1,000 endpoints of their own publishes (the event and
// its 1,000 deliveries are written in the publishing transaction), a receiver on loopback answers, a tenth of its
// endpoints failing their first attempt and then recovering, while readers keep reading. Checked: the publish
// commits within 1 s, every endpoint has its delivery within 60 s, none gets the event under two ids, every
// signature verifies with `standardwebhooks`, and readers' p99 stays within 50 ms.
import { execFile } from "node:child_process";
import http from "node:http";
import type net from "node:net";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { sealSecret } from "../../src/server/services/webhooks/secrets.ts";
import { bin, startServerProcess } from "../lib/run.ts";
import { startScratchServer } from "../lib/scratch-server.ts";

const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 1000);
/** Every tenth endpoint fails its first delivery, then recovers. */
const FAILING_EVERY = 10;
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

interface WebhookSite {
  url: string;
  pid: number;
  authorToken: string;
  category: string;
}

/** The server side: an author with `ENDPOINTS` endpoints, each a path of the receiver, and serves. */
export async function serveWebhooks(receiver: string) {
  const { app, url, serveUntilStopped } = await startScratchServer("webhooks", process.env.BENCH_DATABASE_URL, {
    LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
    RATE_LIMIT_FACTOR: "1000",
  });
  const rows = async <Row>(query: ReturnType<typeof sql>) =>
    ((await app.db.execute(query)) as unknown as { rows: Row[] }).rows;
  const [author] = await rows<{ id: string }>(sql`
    insert into users (first_name, last_name, handle, email, password_hash, is_account_verified)
    values ('Hooked', 'Author', 'hooked-author', 'hooked@bench.example.com', 'not-a-hash', true) returning id`);
  if (!author) throw new Error("seeding failed");
  await app.db.execute(sql`insert into categories (title, user_id) values ('News', ${author.id})`);
  const sealed = sealSecret(app.config.jwtSecret ?? "", SECRET);
  await app.db.execute(sql`
    insert into webhook_endpoints (user_id, url, events, secret)
    select ${author.id}::uuid, ${receiver} || '/hook/' || g, array['post.published', 'post.updated'], ${sealed}
    from generate_series(1, ${ENDPOINTS}) g`);
  // Another author's post first: what a server loads with its first publish (Fedify, to sign the revision) is a
  // start-up's cost, not the fan-out's.
  const [other] = await rows<{ id: string }>(sql`
    insert into users (first_name, last_name, handle, email, password_hash, is_account_verified)
    values ('Other', 'Author', 'other-author', 'other@bench.example.com', 'not-a-hash', true) returning id`);
  if (!other) throw new Error("seeding failed");
  const warm = await app.inject({
    method: "POST",
    url: "/api/posts",
    headers: { authorization: `Bearer ${await app.tokens.sign({ id: other.id, tokenVersion: 0 })}` },
    payload: { title: "First", description: "<p>First</p>", category: "News", isFeatured: false },
  });
  if (warm.statusCode !== 201) throw new Error(`the first publish failed: ${warm.body}`);
  await app.db.execute(sql`vacuum analyze`);
  serveUntilStopped({
    url,
    authorToken: await app.tokens.sign({ id: author.id, tokenVersion: 0 }),
    category: "News",
  } satisfies Omit<WebhookSite, "pid">);
}

/** A receiver on loopback: every endpoint's deliveries (ids, and when the first success came). */
async function startReceiver() {
  const verifier = new Webhook(SECRET);
  const ids = new Map<string, Set<string>>();
  const deliveredAt = new Map<string, number>();
  const attempts = new Map<string, number>();
  let badSignatures = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      const tried = (attempts.get(path) ?? 0) + 1;
      attempts.set(path, tried);
      try {
        verifier.verify(Buffer.concat(chunks).toString(), request.headers as Record<string, string>);
      } catch {
        badSignatures += 1;
      }
      ids.set(path, new Set([...(ids.get(path) ?? []), String(request.headers["webhook-id"])]));
      const failing = Number(path.split("/").at(-1)) % FAILING_EVERY === 0 && tried === 1;
      if (!failing && !deliveredAt.has(path)) deliveredAt.set(path, performance.now());
      response.statusCode = failing ? 503 : 204;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    ids,
    deliveredAt,
    badSignatures: () => badSignatures,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The orchestrating side: publishes, loads the readers, waits for every delivery and checks the targets. */
export async function benchWebhooks(script: string, seconds: number) {
  const receiver = await startReceiver();
  const { child, info: site } = await startServerProcess<WebhookSite>(
    script,
    { BENCH_WEBHOOK_RECEIVER: receiver.url },
    "--webhooks",
  );
  const misses: string[] = [];
  const readers = async () => {
    const { stdout } = await promisify(execFile)(
      bin("autocannon"),
      ["-c", "20", "-d", String(seconds), "-j", "-H", "accept-encoding=br, gzip", `${site.url}/api/posts`],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    return JSON.parse(stdout);
  };
  try {
    console.log(`\nWebhooks: an author with ${ENDPOINTS.toLocaleString("en")} endpoints publishes`);
    // The same readers first with nothing going out: on a shared machine only the same run's ratio says much.
    const quiet = await readers();
    console.log(`reads before: ${Math.round(quiet.requests.average)} req/s, p99 ${quiet.latency.p99} ms`);
    const start = performance.now();
    const published = await fetch(`${site.url}/api/posts`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${site.authorToken}` },
      body: JSON.stringify({
        title: "Hooked",
        description: "<p>Hello</p>",
        category: site.category,
        isFeatured: false,
      }),
    });
    const publishMs = performance.now() - start;
    if (published.status !== 201) throw new Error(`publishing failed: ${await published.text()}`);
    console.log(
      `publish, with its event and ${ENDPOINTS} deliveries queued in its transaction: ${publishMs.toFixed(0)} ms`,
    );
    if (publishMs > 1000) misses.push(`publishing to ${ENDPOINTS} endpoints took ${publishMs.toFixed(0)} ms, over 1 s`);

    // Readers keep reading while the deliveries go out (autocannon in its own process, 20 connections).
    const load = await readers();
    console.log(
      `reads while webhooks go out: ${Math.round(load.requests.average)} req/s, p99 ${load.latency.p99} ms, ${load.errors + load.non2xx} failed; ${receiver.deliveredAt.size} endpoints delivered meanwhile`,
    );
    if (load.latency.p99 > 50) misses.push(`reads during the webhooks: p99 ${load.latency.p99} ms, over 50 ms`);
    while (receiver.deliveredAt.size < ENDPOINTS && performance.now() - start < 90_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const times = [...receiver.deliveredAt.values()].map((at) => at - start).sort((a, b) => a - b);
    const last = times.at(-1) ?? Number.POSITIVE_INFINITY;
    const firstTries = times.filter((_, i) => i < (ENDPOINTS * (FAILING_EVERY - 1)) / FAILING_EVERY);
    console.log(
      `deliveries: ${receiver.deliveredAt.size.toLocaleString("en")} of ${ENDPOINTS.toLocaleString("en")} endpoints, the 90 % that answered at once by ${((firstTries.at(-1) ?? 0) / 1000).toFixed(1)} s, the last (after its retry) at ${(last / 1000).toFixed(1)} s`,
    );
    if (receiver.deliveredAt.size < ENDPOINTS || last > 60_000)
      misses.push(`not every endpoint had its webhook within 60 s (${receiver.deliveredAt.size} did)`);
    const twice = [...receiver.ids.values()].filter((set) => set.size > 1).length;
    console.log(
      `endpoints that got the event under two ids: ${twice}; signatures that failed to verify: ${receiver.badSignatures()}`,
    );
    if (twice > 0) misses.push(`${twice} endpoints got one event under two ids`);
    if (receiver.badSignatures() > 0) misses.push(`${receiver.badSignatures()} deliveries did not verify`);
  } finally {
    child.kill("SIGTERM");
    await receiver.close();
  }
  return misses;
}
