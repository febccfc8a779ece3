// The audience loop under load, for `npm run bench`: an author with 10,000 followers publishes (the notifications
// and the mails are written by one statement each, in the publishing transaction), the outbox drains through a
// real SMTP server while readers keep reading, and a reader with 100,000 notifications reads their count and pages.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { type SQLWrapper, sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { notificationsPage, unreadCountStatement } from "../../src/server/services/notifications/user-notifications.ts";
import { bin, startServerProcess } from "../lib/run.ts";
import { startScratchServer } from "../lib/scratch-server.ts";

const FOLLOWERS = Number(process.env.BENCH_FOLLOWERS ?? 10_000);
const NOTIFICATIONS = 100_000;

export interface AudienceSite {
  url: string;
  pid: number;
  authorToken: string;
  readerToken: string;
  category: string;
  plans: { unreadCount: string; notificationsPage: string };
}

/** The server side: seeds the author, their followers and a reader's notifications, and serves. */
export async function serveAudience(smtpUrl: string) {
  const { app, url, serveUntilStopped } = await startScratchServer("audience", process.env.BENCH_DATABASE_URL, {
    LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
    SMTP_URL: smtpUrl,
    RATE_LIMIT_FACTOR: "1000",
  });
  const rows = async <Row>(query: ReturnType<typeof sql>) =>
    ((await app.db.execute(query)) as unknown as { rows: Row[] }).rows;
  const [author] = await rows<{ id: string }>(sql`
    insert into users (first_name, last_name, handle, email, password_hash, is_account_verified)
    values ('Popular', 'Author', 'popular-author', 'author@bench.example.com', 'not-a-hash', true) returning id`);
  const [reader] = await rows<{ id: string }>(sql`
    insert into users (first_name, last_name, handle, email, password_hash, is_account_verified)
    values ('Busy', 'Reader', 'busy-reader', 'reader@bench.example.com', 'not-a-hash', true) returning id`);
  if (!author || !reader) throw new Error("seeding failed");
  await app.db.execute(sql`insert into categories (title, user_id) values ('News', ${author.id})`);
  await app.db.execute(sql`
    with fans as (
      insert into users (first_name, last_name, handle, email, password_hash, is_account_verified)
      select 'Fan', g::text, 'fan-' || g, 'fan' || g || '@bench.example.com', 'not-a-hash', true from generate_series(1, ${FOLLOWERS}) g
      returning id)
    insert into follows (follower_id, followee_id) select id, ${author.id}::uuid from fans`);
  // A reader who was told a lot: 100,000 notifications, a tenth of them unread.
  await app.db.execute(sql`
    insert into notifications (user_id, kind, group_key, last_actor_id, read_at, updated_at)
    select ${reader.id}::uuid, 'follow', 'bench:' || g, ${author.id}::uuid,
      case when g % 10 = 0 then null else now() end, now() - (g || ' seconds')::interval
    from generate_series(1, ${NOTIFICATIONS}) g`);
  await app.db.execute(sql`vacuum analyze`);
  const plan = async (query: SQLWrapper) =>
    (await rows<Record<string, string>>(sql`explain ${query}`)).map((row) => Object.values(row)[0]).join("\n");
  const token = (id: string) => app.tokens.sign({ id, tokenVersion: 0 });
  // Served until stopped: then the scratch database and data folder go too.
  serveUntilStopped({
    url,
    authorToken: await token(author.id),
    readerToken: await token(reader.id),
    category: "News",
    plans: {
      // The count's and the page's own statements, with every check of what a reader may see.
      unreadCount: await plan(unreadCountStatement(reader.id)),
      notificationsPage: await plan(notificationsPage(app.db, reader.id, { limit: 20 })),
    },
  } satisfies Omit<AudienceSite, "pid">);
}

/** A real SMTP server counting what it receives, per recipient and Message-ID. */
async function countingSmtp() {
  const received = new Map<string, Set<string>>();
  let total = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let head = "";
      stream.on("data", (chunk: Buffer) => {
        if (head.length < 4096) head += chunk.toString();
      });
      stream.on("end", () => {
        const id = /^Message-ID: (<[^>]+>)/im.exec(head)?.[1] ?? `?${total}`;
        for (const rcpt of session.envelope.rcptTo) {
          received.set(rcpt.address, new Set([...(received.get(rcpt.address) ?? []), id]));
        }
        total += 1;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return { url: `smtp://127.0.0.1:${port}`, received, total: () => total, close: () => server.close() };
}

const p99Of = (times: number[]) => times.sort((a, b) => a - b)[Math.floor(times.length * 0.99)] ?? 0;

/** Requests one at a time, `count` of them: each answer's time in ms. */
async function timed(url: string, headers: Record<string, string>, count: number) {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    times.push(performance.now() - start);
  }
  return times;
}

/** The orchestrating side: prints the fan-out, the reads during the drain, and the notifications' costs. */
export async function benchAudience(script: string, seconds: number) {
  const smtp = await countingSmtp();
  const { child, info: site } = await startServerProcess<AudienceSite>(
    script,
    { AUDIENCE_SMTP: smtp.url },
    "--audience",
  );
  const misses: string[] = [];
  try {
    console.log(`\nThe audience loop: an author with ${FOLLOWERS.toLocaleString("en")} followers publishes`);
    const start = performance.now();
    const published = await fetch(`${site.url}/api/posts`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${site.authorToken}` },
      body: JSON.stringify({
        title: "News for everyone",
        description: "<p>Hello</p>",
        category: site.category,
        isFeatured: false,
      }),
    });
    const publishMs = performance.now() - start;
    if (published.status !== 201) throw new Error(`publishing failed: ${await published.text()}`);
    console.log(`publish, with every notification and mail queued in its transaction: ${publishMs.toFixed(0)} ms`);
    if (publishMs > 1000) misses.push(`publishing to ${FOLLOWERS} followers took ${publishMs.toFixed(0)} ms, over 1 s`);

    // Readers keep reading while the outbox drains (autocannon in its own process, 20 connections).
    const { stdout } = await promisify(execFile)(
      bin("autocannon"),
      ["-c", "20", "-d", String(seconds), "-j", "-H", "accept-encoding=br, gzip", `${site.url}/api/posts`],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    const load = JSON.parse(stdout);
    const sentDuring = smtp.total();
    console.log(
      `reads while the outbox drains: ${Math.round(load.requests.average)} req/s, p99 ${load.latency.p99} ms, ${load.errors + load.non2xx} failed; ${sentDuring.toLocaleString("en")} mails sent meanwhile`,
    );
    if (load.latency.p99 > 50) misses.push(`reads during the drain: p99 ${load.latency.p99} ms, over 50 ms`);
    const drainStart = performance.now();
    while (smtp.received.size < FOLLOWERS && performance.now() - drainStart < 600_000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const once = [...smtp.received.values()].filter((ids) => ids.size === 1).length;
    console.log(
      `mails: ${smtp.total().toLocaleString("en")} delivered to ${smtp.received.size.toLocaleString("en")} followers, ${once.toLocaleString("en")} of them exactly one message`,
    );
    if (once !== FOLLOWERS || smtp.total() !== FOLLOWERS) misses.push(`not every follower got exactly one mail`);

    const reader = { authorization: `Bearer ${site.readerToken}` };
    const counts = await timed(`${site.url}/api/notifications/unread-count`, reader, 200);
    const pages = await timed(`${site.url}/api/notifications?limit=20`, reader, 200);
    console.log(
      `a reader with ${NOTIFICATIONS.toLocaleString("en")} notifications: unread count p99 ${p99Of(counts).toFixed(1)} ms, a page p99 ${p99Of(pages).toFixed(1)} ms (one at a time, 200 each)`,
    );
    console.log(`  unread count plan:\n    ${site.plans.unreadCount.split("\n").join("\n    ")}`);
    console.log(`  page plan:\n    ${site.plans.notificationsPage.split("\n").join("\n    ")}`);
    // The count reads the partial index of unread rows up to its bound (not index-only: the checks of what a reader
    // may see read the row's post and actor), never the table.
    const count = site.plans.unreadCount;
    if (
      !/Limit[\s\S]*Index (Only )?Scan using notifications_unread_idx/.test(count) ||
      /Seq Scan on notifications/.test(count)
    ) {
      misses.push("the unread count does not read its partial index up to its bound");
    }
    if (!/Index (Only )?Scan using notifications_list_idx/.test(site.plans.notificationsPage)) {
      misses.push("the notifications page does not read its index");
    }
  } finally {
    child.kill("SIGTERM");
    smtp.close();
  }
  return misses;
}
