// `npm run load`: a bounded mixed load against the real app on 127.0.0.1 — readers listing and opening posts,
// writers commenting and liking, people logging in — all at once for LOAD_SECONDS (default 60), as fast as the
// server answers. It must end with no 5xx, no socket errors or timeouts, and every kind of request answering within
// P_TARGET_MS at the 97.5th percentile (which bounds the 95th). The server runs in its own process; PGlite by default,
// LOAD_DATABASE_URL (a PostgreSQL server) runs it on a fresh database there, dropped afterwards.
import autocannon from "autocannon";
import { startServerProcess } from "./lib/run.ts";
import { startScratchServer } from "./lib/scratch-server.ts";

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const P_TARGET_MS = 500;
const WRITERS = 12;
const PASSWORD = "load test password";

interface Site {
  url: string;
  postIds: string[];
  tokens: string[];
  emails: string[];
}

/** The server side: a fresh site with an admin, writers and posts, made through the API as users would. */
async function serve() {
  const { url, serveUntilStopped } = await startScratchServer("load", process.env.LOAD_DATABASE_URL, {
    LOG_LEVEL: "warn",
    // Every simulated user shares one address here; the per-user limits still apply as scaled.
    RATE_LIMIT_FACTOR: "1000",
  });
  const call = async <T>(method: string, route: string, body: unknown, token?: string) => {
    const response = await fetch(`${url}${route}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const emails = Array.from({ length: WRITERS }, (_, i) => `writer${i}@load.example.com`);
  const tokens: string[] = [];
  for (const email of emails) {
    const registration = { firstName: "Load", lastName: "Writer", email, password: PASSWORD };
    await call("POST", "/api/users/register", {
      ...registration,
      walletAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    });
    tokens.push((await call<{ token: string }>("POST", "/api/users/login", registration)).token);
  }
  const [adminToken] = tokens as [string];
  await call("POST", "/api/category", { title: "Load" }, adminToken);
  const postIds: string[] = [];
  for (let i = 0; i < 40; i++) {
    const body = {
      title: `Post ${i}`,
      description: `<p>${"Words ".repeat(80)}</p>`,
      category: "Load",
      isFeatured: false,
    };
    postIds.push((await call<{ id: string }>("POST", "/api/posts", body, tokens[i % WRITERS])).id);
  }
  serveUntilStopped({ url, postIds, tokens, emails } satisfies Site);
}

const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)] as T;

interface Row {
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p975: number;
  client4xx: number;
  server5xx: number;
  errors: number;
}

async function run(name: string, connections: number, options: Partial<autocannon.Options>): Promise<Row> {
  const result = await autocannon({ connections, duration: SECONDS, url: "", ...options } as autocannon.Options);
  return {
    name,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p975: result.latency.p97_5,
    client4xx: result["4xx"],
    server5xx: result["5xx"],
    errors: result.errors + result.timeouts,
  };
}

async function load() {
  console.log(`Mixed load for ${SECONDS} s on ${process.env.LOAD_DATABASE_URL ? "PostgreSQL" : "PGlite"}…`);
  const { child, info: site } = await startServerProcess<Site>(import.meta.filename);
  const json = { "content-type": "application/json" };
  try {
    const rows = await Promise.all([
      run("read: list, post, categories", 12, {
        url: site.url,
        requests: [
          { method: "GET", path: "/api/posts" },
          { method: "GET", setupRequest: (request) => ({ ...request, path: `/api/posts/${pick(site.postIds)}` }) },
          { method: "GET", path: "/api/category" },
        ],
      }),
      run("write: comment, like", 4, {
        url: site.url,
        requests: [
          {
            method: "POST",
            setupRequest: (request) => ({
              ...request,
              path: "/api/comments",
              headers: { ...json, authorization: `Bearer ${pick(site.tokens)}` },
              body: JSON.stringify({ postId: pick(site.postIds), description: "A comment under load" }),
            }),
          },
          {
            method: "PUT",
            setupRequest: (request) => ({
              ...request,
              path: "/api/posts/likes",
              headers: { ...json, authorization: `Bearer ${pick(site.tokens)}` },
              body: JSON.stringify({ postId: pick(site.postIds) }),
            }),
          },
        ],
      }),
      run("login", 2, {
        url: site.url,
        requests: [
          {
            method: "POST",
            setupRequest: (request) => ({
              ...request,
              path: "/api/users/login",
              headers: json,
              body: JSON.stringify({ email: pick(site.emails), password: PASSWORD }),
            }),
          },
        ],
      }),
    ]);
    for (const row of rows) {
      console.log(
        `${row.name.padEnd(30)} ${String(row.requests).padStart(7)} requests ${String(row.rps).padStart(5)} req/s   p50 ${String(row.p50).padStart(4)} ms   p97.5 ${String(row.p975).padStart(4)} ms   4xx ${row.client4xx}   5xx ${row.server5xx}   errors ${row.errors}`,
      );
    }
    const misses = rows.flatMap((row) => [
      ...(row.server5xx > 0 ? [`${row.name}: ${row.server5xx} answers were 5xx`] : []),
      ...(row.errors > 0 ? [`${row.name}: ${row.errors} requests failed or timed out`] : []),
      ...(row.p975 >= P_TARGET_MS ? [`${row.name}: p97.5 ${row.p975} ms is not under ${P_TARGET_MS} ms`] : []),
      ...(row.requests === 0 ? [`${row.name}: no request was answered`] : []),
      // Every request here is well-formed and allowed: a 4xx would mean the load tested less than it says.
      ...(row.client4xx > 0 ? [`${row.name}: ${row.client4xx} answers were 4xx`] : []),
    ]);
    console.log(
      misses.length
        ? `\nTargets missed:\n${misses.map((miss) => `  - ${miss}`).join("\n")}`
        : `\nAll targets met: no 5xx, no failed requests, p97.5 (so p95 too) under ${P_TARGET_MS} ms for every kind.`,
    );
    process.exitCode = misses.length ? 1 : 0;
  } finally {
    child.kill("SIGTERM");
  }
}

await (process.argv.includes("--serve") ? serve() : load());
