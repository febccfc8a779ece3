// `npm run bench`: serves the real app on 127.0.0.1 over a seeded database (10,000 posts, 100 authors, reactions and
// comments), loads its read paths with autocannon from this process, and checks the targets below. The server runs
// in its own process so the load generator does not share its event loop. PGlite by default; BENCH_DATABASE_URL
// (a PostgreSQL server) runs it on a fresh database there, dropped afterwards.
import autocannon from "autocannon";
import { type SQL, sql } from "drizzle-orm";
import { encodeCursor } from "../src/server/services/cursor.ts";
import { startServerProcess } from "./lib/run.ts";
import { startScratchServer } from "./lib/scratch-server.ts";

const POSTS = 10_000;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;
/** Every read path answers within this at the 99th percentile, under 10 concurrent connections. */
const P99_TARGET_MS = 250;
/** A deep page costs about what the first one does: keyset paging, not OFFSET. */
const DEEP_PAGE_SLOWDOWN_MAX = 2;

interface Seeded {
  url: string;
  postId: string;
  category: string;
  deepCursor: string;
  token: string;
}

/** The server side: seed, serve, print what the load needs as one JSON line, stop on SIGTERM. */
async function serve() {
  const { app, url, serveUntilStopped } = await startScratchServer("bench", process.env.BENCH_DATABASE_URL, {
    LOG_LEVEL: "silent",
  });
  const db = app.db;
  await db.execute(sql`
    insert into users (first_name, last_name, email, password_hash)
    select 'Author', 'No ' || g, 'author' || g || '@bench.local', 'not-a-hash' from generate_series(1, 100) g`);
  await db.execute(sql`
    insert into categories (title, user_id)
    select 'Category ' || g, (select id from users order by email limit 1) from generate_series(1, 10) g`);
  await db.execute(sql`
    with authors as (select id, row_number() over (order by email) as n from users),
         cats as (select id, row_number() over (order by title) as n from categories)
    insert into posts (title, description, category_id, user_id, is_featured, created_at)
    select 'Post ' || g, '<p>A post body with <strong>some</strong> text.</p>',
           (select id from cats where n = g % 10 + 1), (select id from authors where n = g % 100 + 1),
           g % 500 = 0, now() - (g || ' seconds')::interval
    from generate_series(1, ${POSTS}) g`);
  await db.execute(sql`
    insert into reactions (post_id, user_id, kind)
    select p.id, u.id, case when (length(p.title) + length(u.email)) % 4 = 0 then 'dislike' else 'like' end::reaction_kind
    from (select id, title from posts order by created_at desc limit 2000) p
    cross join (select id, email from users order by email limit 10) u`);
  await db.execute(sql`
    insert into comments (post_id, user_id, description)
    select p.id, (select id from users order by email limit 1), 'A comment on ' || p.title
    from (select id, title from posts order by created_at desc limit 2000) p, generate_series(1, 3)`);
  const firstRow = async <Row>(query: SQL) => ((await db.execute(query)) as unknown as { rows: Row[] }).rows[0];
  const deep = await firstRow<{ is_featured: boolean; at: string; id: string }>(sql`
    select is_featured, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, id
    from posts order by is_featured desc, created_at desc, id desc offset ${POSTS - 500} limit 1`);
  const newest = await firstRow<{ id: string }>(sql`select id from posts order by created_at desc limit 1`);
  const reader = await firstRow<{ id: string; token_version: number }>(
    sql`select id, token_version from users order by email limit 1`,
  );
  if (!deep || !newest || !reader) throw new Error("seeding produced no rows");
  const seeded: Seeded = {
    url,
    postId: newest.id,
    category: "Category 3",
    deepCursor: encodeCursor([deep.is_featured, deep.at, deep.id]),
    token: await app.tokens.sign({ id: reader.id, tokenVersion: reader.token_version }),
  };
  serveUntilStopped(seeded);
}

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

async function load(name: string, url: string, headers: Record<string, string> = {}): Promise<Row> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  return {
    name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}

async function bench() {
  console.log(`Seeding ${POSTS} posts on ${process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "PGlite"}…`);
  const { child, info: seeded } = await startServerProcess<Seeded>(import.meta.filename);
  try {
    const api = `${seeded.url}/api`;
    const rows: Row[] = [];
    const scenarios: [string, string, Record<string, string>?][] = [
      ["posts, first page", `${api}/posts`],
      ["posts, first page, signed in", `${api}/posts`, { authorization: `Bearer ${seeded.token}` }],
      ["posts, a page 9,500 deep", `${api}/posts?cursor=${seeded.deepCursor}`],
      ["posts in one category", `${api}/posts?category=${encodeURIComponent(seeded.category)}`],
      ["posts, 100 a page", `${api}/posts?limit=100`],
      ["post detail with comments", `${api}/posts/${seeded.postId}`],
      ["categories", `${api}/category`],
    ];
    for (const [name, url, headers] of scenarios) {
      rows.push(await load(name, url, headers));
      const row = rows.at(-1) as Row;
      console.log(
        `${name.padEnd(30)} ${String(row.rps).padStart(6)} req/s   p50 ${String(row.p50).padStart(4)} ms   p99 ${String(row.p99).padStart(4)} ms   failures ${row.failures}`,
      );
    }
    const misses = rows.flatMap((row) => [
      ...(row.failures > 0 ? [`${row.name}: ${row.failures} failed requests`] : []),
      ...(row.p99 > P99_TARGET_MS ? [`${row.name}: p99 ${row.p99} ms is over ${P99_TARGET_MS} ms`] : []),
    ]);
    const [first, deep] = [rows[0] as Row, rows[2] as Row];
    if (deep.p50 > Math.max(first.p50 * DEEP_PAGE_SLOWDOWN_MAX, first.p50 + 5)) {
      misses.push(
        `a deep page (p50 ${deep.p50} ms) costs more than ${DEEP_PAGE_SLOWDOWN_MAX}× the first (${first.p50} ms)`,
      );
    }
    console.log(
      misses.length
        ? `\nTargets missed:\n${misses.map((miss) => `  - ${miss}`).join("\n")}`
        : `\nAll targets met: no failures, p99 ≤ ${P99_TARGET_MS} ms, deep pages within ${DEEP_PAGE_SLOWDOWN_MAX}× the first.`,
    );
    process.exitCode = misses.length ? 1 : 0;
  } finally {
    child.kill("SIGTERM");
  }
}

await (process.argv.includes("--serve") ? serve() : bench());
