// `npm run bench`: the read paths under load, each beside a bare node:http server answering the very same bytes
// from memory (the machine's ceiling), measured in the same run with the same load generator (autocannon in its
// own process, 50 connections). The server runs as `npm start` runs it, logging each request at the default level,
// and every request asks for `Accept-Encoding: br, gzip` as browsers do: the ceiling sends the same compressed bytes.
// Prints req/s, p50, p99 and the share of the ceiling, and checks the targets below; then how long uncached searches
// take, one at a time; then the audience loop (bench/audience.ts): a new post to 10,000 followers, reads while its
// mail drains, and a reader's 100,000 notifications; then webhooks (bench/webhooks.ts: a post to 1,000 endpoints,
// a tenth failing once); then federation, moderation, stats (bench/stats.ts: what
// recording reads costs a page, the stats screens over 1,000,000 views), *Download my data*, an import, and
// `npm start`'s start-up (bench/start.ts). The app is seeded with 10,000 posts (`-- --scale`: also 100,000 posts
// and 1,000,000 reactions, comparing what an uncached first and deep page cost). PGlite by default;
// BENCH_DATABASE_URL (a PostgreSQL server) runs it on a fresh database there, dropped afterwards. Not part of
// `npm test`: this machine is shared, so only same-run ratios count.
import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { type SQL, sql } from "drizzle-orm";
import { encodeCursor } from "../src/server/infra/cursor.ts";
import { listPosts } from "../src/server/services/content/shown-posts.ts";
import { benchAudience, serveAudience } from "./bench/audience.ts";
import { benchFederation, joinFederation, serveFederation } from "./bench/federation.ts";
import { benchImport, pacedReaders, uploadArchive } from "./bench/importing.ts";
import { benchExport } from "./bench/leaving.ts";
import { benchModeration } from "./bench/moderation.ts";
import { measureLongBodies, measureSearch, WORST_QUERY, writeBodies } from "./bench/search.ts";
import { benchStart } from "./bench/start.ts";
import { benchStats, serveStatsPage } from "./bench/stats.ts";
import { benchWebhooks, serveWebhooks } from "./bench/webhooks.ts";
import { bin, getRaw, READY_MARK, residentMiB, startServerProcess } from "./lib/run.ts";
import { startScratchServer } from "./lib/scratch-server.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const P99_TARGET_MS = 50;
const SCALE_TARGET = 1.5;
const postgres = Boolean(process.env.BENCH_DATABASE_URL);

interface Seeded {
  url: string;
  /** The server process, whose memory is read. */
  pid: number;
  postId: string;
  category: string;
  deepCursor: string;
  token: string;
  /** Milliseconds one uncached page query takes (median), first page and deep. */
  cost: { first: number; deep: number };
  /** Milliseconds an uncached search takes through the request path. */
  search: Awaited<ReturnType<typeof measureSearch>>;
  /** Milliseconds (medians) a search page of posts with 100 KB bodies takes, and their excerpts in the database. */
  longBodies: Awaited<ReturnType<typeof measureLongBodies>>;
}

async function seed(db: Awaited<ReturnType<typeof startScratchServer>>["app"]["db"], posts: number, likers: number) {
  await db.execute(sql`
    insert into users (first_name, last_name, handle, email, password_hash)
    select 'Author', 'No ' || g, 'author-no-' || g, 'author' || g || '@bench.example.com', 'not-a-hash' from generate_series(1, 100) g`);
  await db.execute(sql`
    insert into categories (title, user_id)
    select 'Category ' || g, (select id from users order by email limit 1) from generate_series(1, 10) g`);
  await db.execute(sql`
    with authors as (select id, row_number() over (order by email) as n from users),
         cats as (select id, row_number() over (order by title) as n from categories)
    insert into posts (title, description, category_id, user_id, is_featured, num_views, created_at, published_at)
    select 'Post ' || g, '<p>A post body</p>',
           (select id from cats where n = g % 10 + 1), (select id from authors where n = g % 100 + 1),
           g % 500 = 0, g % 97, at, at
    from generate_series(1, ${posts}) g cross join lateral (select now() - (g || ' seconds')::interval as at) t`);
  await writeBodies(db);
  // Every post gets `likers` reactions from the first authors (10 × 100,000 = 1,000,000 at scale).
  await db.execute(sql`
    insert into reactions (post_id, user_id, kind)
    select p.id, u.id, case when (p.num_views + u.n) % 4 = 0 then 'dislike' else 'like' end::reaction_kind
    from posts p cross join (select id, row_number() over (order by email) as n from users order by email limit ${likers}) u`);
  await db.execute(sql`
    insert into comments (post_id, user_id, description)
    select p.id, (select id from users order by email limit 1), 'A comment on ' || p.title
    from (select id, title from posts order by created_at desc limit 2000) p, generate_series(1, 3)`);
  // As autovacuum would leave a table that has settled: statistics, hint bits and the visibility map.
  await db.execute(sql`vacuum analyze`);
}

/** The server side: seed, measure the bare query cost, serve, print what the load needs as one JSON line. */
async function serve() {
  const posts = Number(process.env.BENCH_POSTS ?? 10_000);
  const { app, url, serveUntilStopped } = await startScratchServer("bench", process.env.BENCH_DATABASE_URL, {
    LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
    // The search timing sends a few hundred searches from one address.
    RATE_LIMIT_FACTOR: "1000",
    // Read paths are measured as a federating site serves them (the ActivityPub routes are in its router);
    // BENCH_FEDERATION=off measures them without, for a comparison.
    FEDERATION: process.env.BENCH_FEDERATION ?? "on",
  });
  // Ten reactions a post at both sizes, so the scale run grows the tables, not each post.
  await seed(app.db, posts, 10);
  const firstRow = async <Row>(query: SQL) => ((await app.db.execute(query)) as unknown as { rows: Row[] }).rows[0];
  const deep = await firstRow<{ is_featured: boolean; at: string; id: string }>(sql`
    select is_featured, to_char(published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, id
    from posts order by is_featured desc, published_at desc, id desc offset ${Math.round(posts * 0.9)} limit 1`);
  const newest = await firstRow<{ id: string }>(sql`select id from posts order by created_at desc limit 1`);
  const reader = await firstRow<{ id: string; token_version: number }>(
    sql`select id, token_version from users order by email limit 1`,
  );
  if (!deep || !newest || !reader) throw new Error("seeding produced no rows");
  const deepCursor = encodeCursor([deep.is_featured, deep.at, deep.id]);
  // Median of 100 runs after 30 to warm up, the two pages taking turns so neither pays for the other's start.
  const pages = [{ limit: 20 }, { limit: 20, cursor: deepCursor }];
  const times: number[][] = [[], []];
  for (let i = 0; i < 130; i++) {
    for (const [n, query] of pages.entries()) {
      const start = performance.now();
      await listPosts(app, query);
      if (i >= 30) times[n]?.push(performance.now() - start);
    }
  }
  const median = (n: number) => Number((times[n]?.sort((a, b) => a - b)[50] ?? 0).toFixed(2));
  serveUntilStopped({
    url,
    postId: newest.id,
    category: "Category 3",
    deepCursor,
    token: await app.tokens.sign({ id: reader.id, tokenVersion: reader.token_version }),
    cost: { first: median(0), deep: median(1) },
    search: await measureSearch(app),
    longBodies: await measureLongBodies(app),
  } satisfies Omit<Seeded, "pid">);
}

/** The ceiling: a bare node:http server answering `body` from memory with the same type and encoding. */
function ceiling() {
  const body = fs.readFileSync(process.env.CEILING_BODY as string);
  const headers = {
    "content-type": process.env.CEILING_TYPE as string,
    ...(process.env.CEILING_ENCODING ? { "content-encoding": process.env.CEILING_ENCODING } : {}),
    "content-length": body.length,
  };
  const server = http.createServer((_request, response) => {
    response.writeHead(200, headers);
    response.end(body);
  });
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as { port: number };
    process.stdout.write(`${READY_MARK}${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
  });
  process.once("SIGTERM", () => server.close(() => process.exit(0)));
}

interface Result {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

/** autocannon in its own process, so the load generator never shares an event loop with what it measures. */
async function hammer(url: string, headers: Record<string, string>): Promise<Result> {
  const args = ["-c", String(CONNECTIONS), "-d", String(SECONDS), "-j"];
  for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}=${value}`);
  const { stdout } = await promisify(execFile)(bin("autocannon"), [...args, url], { maxBuffer: 16 * 1024 * 1024 });
  const result = JSON.parse(stdout);
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}

interface Scenario {
  name: string;
  path: string;
  headers?: Record<string, string>;
  /** Least share of the ceiling, on PostgreSQL and on PGlite. */
  share?: [number, number];
}

/** What every request of the benchmark sends, as a browser would. */
const BROWSER = { "accept-encoding": "br, gzip" };

async function measure(site: Seeded, scenario: Scenario) {
  const headers = { ...BROWSER, ...scenario.headers };
  const sample = await getRaw(`${site.url}${scenario.path}`, headers);
  const bodyFile = path.join(os.tmpdir(), `penchain-ceiling-${process.pid}.json`);
  fs.writeFileSync(bodyFile, sample.body);
  const bare = await startServerProcess<{ url: string }>(
    import.meta.filename,
    {
      CEILING_BODY: bodyFile,
      CEILING_TYPE: String(sample.headers["content-type"] ?? "application/json"),
      CEILING_ENCODING: String(sample.headers["content-encoding"] ?? ""),
    },
    "--ceiling",
  );
  try {
    const app = await hammer(`${site.url}${scenario.path}`, headers);
    const top = await hammer(bare.info.url, headers);
    return { app, top, share: app.rps / top.rps };
  } finally {
    bare.child.kill("SIGTERM");
    fs.rmSync(bodyFile, { force: true });
  }
}

const pad = (value: string | number, width: number) => String(value).padStart(width);

async function benchAt(posts: number) {
  console.log(
    `\n${posts.toLocaleString("en")} posts on ${postgres ? "PostgreSQL" : "PGlite"}, ${CONNECTIONS} connections, ${SECONDS} s each`,
  );
  const { child, info: site } = await startServerProcess<Seeded>(import.meta.filename, {
    BENCH_POSTS: String(posts),
  });
  const misses: string[] = [];
  const idleMiB = residentMiB(site.pid);
  try {
    const signedIn = { authorization: `Bearer ${site.token}` };
    const scenarios: Scenario[] = [
      { name: "posts, first page", path: "/api/posts", share: [0.35, 0.35] },
      { name: "post detail", path: `/api/posts/${site.postId}`, share: [0.25, 0.25] },
      { name: "posts, signed-in reader", path: "/api/posts", headers: signedIn, share: [0.2, 0.2] },
      { name: "posts, 90% deep", path: `/api/posts?cursor=${site.deepCursor}` },
      { name: "posts in one category", path: `/api/posts?category=${encodeURIComponent(site.category)}` },
      { name: "categories", path: "/api/category" },
      // The reader pages a link in a chat or a search result opens, rendered on the server.
      { name: "page: a post", path: `/posts/${site.postId}`, share: [0.25, 0.25] },
      { name: "page: the list", path: "/posts", share: [0.25, 0.25] },
    ];
    console.log(`Every request sends Accept-Encoding: ${BROWSER["accept-encoding"]}; the server logs each at "info".`);
    console.log(`${"".padEnd(26)}   Penchain req/s  p50  p99 │ node:http req/s  p99 │ share`);
    for (const scenario of scenarios) {
      const { app, top, share } = await measure(site, scenario);
      console.log(
        `${scenario.name.padEnd(26)} ${pad(app.rps, 16)} ${pad(app.p50, 4)} ${pad(app.p99, 4)} │ ${pad(top.rps, 15)} ${pad(top.p99, 4)} │ ${pad((share * 100).toFixed(1), 5)} %`,
      );
      if (app.failures > 0) misses.push(`${scenario.name}: ${app.failures} failed requests`);
      if (app.p99 > P99_TARGET_MS) misses.push(`${scenario.name}: p99 ${app.p99} ms is over ${P99_TARGET_MS} ms`);
      const target = scenario.share?.[postgres ? 0 : 1];
      if (target && share < target) {
        misses.push(`${scenario.name}: ${(share * 100).toFixed(1)} % of the ceiling, under ${target * 100} %`);
      }
    }
    console.log(`server memory (RSS): ${idleMiB} MiB idle after seeding, ${residentMiB(site.pid)} MiB after the load`);
    console.log(`uncached page query: first ${site.cost.first} ms, 90% deep ${site.cost.deep} ms`);
    const { search } = site;
    console.log(
      `uncached search, ${search.samples} requests one at a time: p50 ${search.p50} ms, p99 ${search.p99} ms`,
    );
    console.log(`uncached search for "${WORST_QUERY}" (every candidate rechecked): median ${search.worst} ms`);
    const long = site.longBodies;
    console.log(
      `uncached search of posts with 100 KB bodies: a page of 20 in ${long.request} ms; 100 excerpts ${long.excerpts} ms (from whole bodies: ${long.wholeBodies} ms)`,
    );
    if (search.p99 > P99_TARGET_MS) misses.push(`uncached search: p99 ${search.p99} ms is over ${P99_TARGET_MS} ms`);
  } finally {
    child.kill("SIGTERM");
  }
  return { misses, cost: site.cost };
}

async function bench() {
  const small = await benchAt(10_000);
  const misses = [
    ...small.misses,
    ...(await benchAudience(import.meta.filename, SECONDS)),
    ...(await benchWebhooks(import.meta.filename, SECONDS)),
    ...(await benchFederation(import.meta.filename)),
    ...(await benchModeration(process.env.BENCH_DATABASE_URL)),
    ...(await benchStats(import.meta.filename, process.env.BENCH_DATABASE_URL)),
    ...(await benchExport(process.env.BENCH_DATABASE_URL)),
    ...(await benchImport(import.meta.filename, process.env.BENCH_DATABASE_URL)),
    ...(await benchStart()),
  ];
  if (process.argv.includes("--scale")) {
    const large = await benchAt(100_000);
    misses.push(...large.misses);
    for (const page of ["first", "deep"] as const) {
      const ratio = large.cost[page] / small.cost[page];
      console.log(`scale: ${page} page costs ${ratio.toFixed(2)}× at 100,000 posts / 1,000,000 reactions`);
      if (ratio > SCALE_TARGET)
        misses.push(`the ${page} page costs ${ratio.toFixed(2)}× at scale, over ${SCALE_TARGET}×`);
    }
  }
  console.log(
    misses.length
      ? `\nTargets missed:\n${misses.map((miss) => `  - ${miss}`).join("\n")}`
      : `\nAll targets met: shares of the ceiling, no failures, p99 ≤ ${P99_TARGET_MS} ms${process.argv.includes("--scale") ? `, scale within ${SCALE_TARGET}×` : ""}.`,
  );
  process.exitCode = misses.length ? 1 : 0;
}

if (process.argv.includes("--serve")) await serve();
else if (process.argv.includes("--audience")) await serveAudience(process.env.AUDIENCE_SMTP as string);
else if (process.argv.includes("--webhooks")) await serveWebhooks(process.env.BENCH_WEBHOOK_RECEIVER as string);
else if (process.argv.includes("--webhooks-only"))
  process.exitCode = (await benchWebhooks(import.meta.filename, SECONDS)).length ? 1 : 0;
else if (process.argv.includes("--federation")) await serveFederation(process.env.BENCH_PEER as string);
else if (process.argv.includes("--federation-join"))
  await joinFederation(process.env.BENCH_PEER as string, process.env.BENCH_SHARED_DATABASE as string);
else if (process.argv.includes("--ceiling")) ceiling();
else if (process.argv.includes("--stats-page")) await serveStatsPage();
else if (process.argv.includes("--stats-only"))
  process.exitCode = (await benchStats(import.meta.filename, process.env.BENCH_DATABASE_URL)).length ? 1 : 0;
else if (process.argv.includes("--export-only"))
  process.exitCode = (await benchExport(process.env.BENCH_DATABASE_URL)).length ? 1 : 0;
else if (process.argv.includes("--paced-readers"))
  await pacedReaders(process.argv.at(-2) as string, process.argv.at(-1) as string);
else if (process.argv.includes("--upload-archive"))
  await uploadArchive(...(process.argv.slice(-3) as [string, string, string]));
else if (process.argv.includes("--import-only"))
  process.exitCode = (await benchImport(import.meta.filename, process.env.BENCH_DATABASE_URL)).length ? 1 : 0;
else if (process.argv.includes("--moderation-only"))
  process.exitCode = (await benchModeration(process.env.BENCH_DATABASE_URL)).length ? 1 : 0;
else if (process.argv.includes("--start-only")) process.exitCode = (await benchStart()).length ? 1 : 0;
else if (process.argv.includes("--reads-only")) process.exitCode = (await benchAt(10_000)).misses.length ? 1 : 0;
else if (process.argv.includes("--federation-only"))
  process.exitCode = (await benchFederation(import.meta.filename)).length ? 1 : 0;
else await bench();
