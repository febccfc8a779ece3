// Stats, for `npm run bench`: what recording reads costs a read (a post's server-rendered page with recording on and
// off, two servers taking turns under the same load), and how fast the stats screens answer over 1,000,000 recorded
// views (hourly rollups of 30 days on 200 posts of one author and 200 of another). The page servers are processes of
// their own, started as `npm start` starts the server (logging on); the stats server is this process's own.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { bin, startServerProcess } from "./run.ts";
import { startScratchServer } from "./scratch-server.ts";

const RECORDING_SHARE = 0.97;
const STATS_P99_MS = 100;
const VIEWS = 1_000_000;
const POSTS_PER_AUTHOR = 200;
const HOURS = 30 * 24;

const percentile = (samples: number[], share: number) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0) * 100) / 100;
};

/** A post page's server: one author, a few posts, recording on or off (`STATS`). */
export async function serveStatsPage() {
  const { app, url, serveUntilStopped } = await startScratchServer("stats_page", process.env.BENCH_DATABASE_URL, {
    LOG_LEVEL: "info",
    RATE_LIMIT_FACTOR: "1000",
    STATS: process.env.STATS ?? "on",
  });
  const rows = async <Row>(query: ReturnType<typeof sql>) =>
    ((await app.db.execute(query)) as unknown as { rows: Row[] }).rows;
  const [author] = await rows<{ id: string }>(sql`
    insert into users (first_name, last_name, handle, email, password_hash)
    values ('Page', 'Author', 'page-author', 'page@bench.example.com', 'not-a-hash') returning id`);
  if (!author) throw new Error("seeding failed");
  await app.db.execute(sql`insert into categories (title, user_id) values ('Pages', ${author.id})`);
  const [post] = await rows<{ id: string }>(sql`
    insert into posts (title, description, category_id, user_id)
    values ('A read page', '<p>A post body, read and counted.</p>', (select id from categories limit 1), ${author.id}::uuid)
    returning id`);
  serveUntilStopped({ url, postId: post?.id });
}

async function hammer(url: string, seconds: number) {
  const args = ["-c", "50", "-d", String(seconds), "-j", "-H", "accept-encoding=br, gzip"];
  // A browser's user agent: a bot's reads are not recorded, so autocannon's own would measure nothing.
  args.push(
    "-H",
    "user-agent=Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
  );
  const { stdout } = await promisify(execFile)(bin("autocannon"), [...args, url], { maxBuffer: 16 * 1024 * 1024 });
  const result = JSON.parse(stdout);
  return { rps: result.requests.average as number, failures: result.errors + result.timeouts + result.non2xx };
}

async function recordingCost(script: string, seconds: number) {
  const servers = await Promise.all(
    (["on", "off"] as const).map(async (stats) => ({
      stats,
      ...(await startServerProcess<{ url: string; postId: string }>(script, { STATS: stats }, "--stats-page")),
    })),
  );
  try {
    const rps: Record<"on" | "off", number[]> = { on: [], off: [] };
    let failures = 0;
    // Three rounds each, taking turns, so neither pays for the other's warm-up or the machine's moment.
    for (let round = 0; round < 3; round++) {
      for (const server of round % 2 ? [...servers].reverse() : servers) {
        const result = await hammer(`${server.info.url}/posts/${server.info.postId}`, seconds);
        rps[server.stats].push(result.rps);
        failures += result.failures;
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[1] ?? 0;
    return { on: Math.round(median(rps.on)), off: Math.round(median(rps.off)), failures };
  } finally {
    for (const server of servers) server.child.kill("SIGTERM");
  }
}

export async function benchStats(script: string, seconds: number, databaseUrl: string | undefined) {
  const misses: string[] = [];
  console.log(`\nStats: a post page with reads recorded and not, 50 connections, ${seconds} s, three rounds each`);
  const cost = await recordingCost(script, seconds);
  const share = cost.on / cost.off;
  console.log(`recording on ${cost.on} req/s, off ${cost.off} req/s (medians): ${(share * 100).toFixed(1)} % kept`);
  if (cost.failures > 0) misses.push(`stats recording: ${cost.failures} failed requests`);
  if (share < RECORDING_SHARE) {
    misses.push(`stats recording keeps ${(share * 100).toFixed(1)} % of reads, under ${RECORDING_SHARE * 100} %`);
  }

  console.log(`Stats screens over ${VIEWS.toLocaleString("en")} recorded views (hourly rollups, 30 days)`);
  const { app, url } = await startScratchServer("stats", databaseUrl, { LOG_LEVEL: "info", RATE_LIMIT_FACTOR: "1000" });
  try {
    const rows = async <Row>(query: ReturnType<typeof sql>) =>
      ((await app.db.execute(query)) as unknown as { rows: Row[] }).rows;
    const authors = await rows<{ id: string }>(sql`
      insert into users (first_name, last_name, handle, email, password_hash, is_admin)
      select 'Stats', 'Author ' || g, 'stats-author-' || g, 'stats' || g || '@bench.example.com', 'not-a-hash', g = 1
      from generate_series(1, 2) g returning id`);
    await app.db.execute(sql`insert into categories (title, user_id) values ('Stats', ${authors[0]?.id})`);
    await app.db.execute(sql`
      insert into posts (title, description, category_id, user_id)
      select 'Read ' || g, '<p>Text</p>', (select id from categories limit 1), a.id
      from (select id from users where email like 'stats%') a, generate_series(1, ${POSTS_PER_AUTHOR}) g`);
    // One row per post and hour, its source, campaign and device varying: ~7 views each, 1,000,000 in all.
    const perRow = Math.ceil(VIEWS / (2 * POSTS_PER_AUTHOR * HOURS));
    await app.db.execute(sql`
      insert into stats_rollups (hour, kind, target_id, author_id, source, utm_source, utm_medium, utm_campaign, device,
        views, visitors, author_visitors, site_visitors)
      select date_trunc('hour', now()) - (h || ' hours')::interval, 'post', p.id, p.user_id,
        (array['', 'news.example', 'mastodon.social', 'duckduckgo.com', 'bsky.app'])[1 + (h + n) % 5],
        case when n % 7 = 0 then 'newsletter' else '' end, '', case when n % 7 = 0 then 'spring' else '' end,
        (array['desktop', 'phone', 'tablet'])[1 + (h * 3 + n) % 3], ${perRow}, 3, 2, 1
      from (select id, user_id, row_number() over () as n from posts) p, generate_series(0, ${HOURS - 1}) h`);
    // The recorder writes each read's sums per day too.
    await app.db.execute(sql`
      insert into stats_daily (day, kind, target_id, author_id, source, utm_source, utm_medium, utm_campaign, device,
        views, visitors, author_visitors, site_visitors)
      select date_trunc('day', hour, 'UTC'), kind, target_id, author_id, source, utm_source, utm_medium, utm_campaign,
        device, sum(views), sum(visitors), sum(author_visitors), sum(site_visitors)
      from stats_rollups group by 1, 2, 3, 4, 5, 6, 7, 8, 9`);
    await app.db.execute(sql`analyze`);
    const [{ views } = { views: 0 }] = await rows<{ views: number }>(
      sql`select sum(views)::int as views from stats_rollups`,
    );
    const [post] = await rows<{ id: string }>(sql`select id from posts where user_id = ${authors[0]?.id} limit 1`);
    const token = await app.tokens.sign({ id: authors[0]?.id as string, tokenVersion: 0 });
    const screens = [
      ["an author, 30 days by day", "/api/stats/author"],
      [
        "an author, 12 months by month",
        `/api/stats/author?interval=month&from=${new Date(Date.now() - 335 * 86_400_000).toISOString().slice(0, 8)}01`,
      ],
      [
        "an author, 48 hours by hour",
        `/api/stats/author?interval=hour&from=${new Date(Date.now() - 48 * 3_600_000).toISOString()}`,
      ],
      ["a post, 30 days", `/api/stats/posts/${post?.id}`],
      ["the site, 30 days", "/api/stats/site"],
    ] as const;
    console.log(
      `(${views.toLocaleString("en")} views in ${(2 * POSTS_PER_AUTHOR * HOURS).toLocaleString("en")} rollup rows)`,
    );
    for (const [name, path] of screens) {
      const samples: number[] = [];
      for (let round = 0; round < 70; round++) {
        const started = performance.now();
        const response = await fetch(`${url}${path}`, {
          headers: { authorization: `Bearer ${token}`, "accept-encoding": "br, gzip" },
        });
        if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
        await response.arrayBuffer();
        if (round >= 10) samples.push(performance.now() - started);
      }
      const p99 = percentile(samples, 0.99);
      console.log(`${name.padEnd(32)} p50 ${percentile(samples, 0.5)} ms, p99 ${p99} ms`);
      if (p99 > STATS_P99_MS) misses.push(`stats of ${name}: p99 ${p99} ms is over ${STATS_P99_MS} ms`);
    }
  } finally {
    await app.close();
  }
  return misses;
}
