// `npm run load`: a bounded mixed load against the real app on 127.0.0.1, run as `npm start` runs it (logging each
// request at "info"), every request asking for `Accept-Encoding: br, gzip` as browsers do. 20 clients for
// LOAD_SECONDS (default 60), as fast as the server answers: 80 % reads (lists, a category, posts; a quarter of them
// signed in), 8 % likes and 7 % comments on the posts being read. Beside them people log in at a steady
// LOGINS_PER_SECOND (default 20): a login is an Argon2 check that costs ~10 ms of a core by design, so logins at 5 %
// of 2,000 req/s would take more than the machine's two cores. It must end with no errors, ≥ 2,000 req/s and
// p99 ≤ 100 ms overall, and the server's memory within bounds. The server runs in its own process; PGlite by
// default, LOAD_DATABASE_URL (a PostgreSQL server) runs it on a fresh database there, dropped afterwards.
import type autocannon from "autocannon";
import { residentMiB, startServerProcess } from "./lib/run.ts";
import { startScratchServer } from "./lib/scratch-server.ts";

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
/** How long the seeded server rests before its idle memory is read (V8 gives back start-up's garbage by then). */
const REST_SECONDS = Number(process.env.LOAD_REST_SECONDS ?? 30);
/** `likes` or `comments`: only that write, no reads, to see what one kind of write costs (not the issue's mix). */
const ONLY = process.env.LOAD_ONLY;
const LOGINS_PER_SECOND = Number(process.env.LOGINS_PER_SECOND ?? 20);
const CLIENTS = 20;
const TARGET = { rps: 2000, p99: 100, idleMiB: 160, loadedMiB: 300 };
const WRITERS = 12;
const POSTS = 200;
const PASSWORD = "load test password";
const BROWSER = { "accept-encoding": "br, gzip" };

interface Site {
  url: string;
  pid: number;
  postIds: string[];
  tokens: string[];
  emails: string[];
}

/** The server side: a fresh site with writers, a category and posts, made through the API as users would. */
async function serve() {
  const { app, url, serveUntilStopped } = await startScratchServer("load", process.env.LOAD_DATABASE_URL, {
    LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
    // Every simulated user shares one address here; the per-user limits still apply as scaled.
    RATE_LIMIT_FACTOR: "1000",
    // The writers are accounts made a moment ago, who would otherwise publish only a few posts a day.
    NEW_ACCOUNT_POSTS_PER_DAY: "10000",
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
  await call("POST", "/api/category", { title: "Other" }, adminToken);
  const postIds: string[] = [];
  for (let i = 0; i < POSTS; i++) {
    const body = {
      title: `Post ${i}`,
      description: `<p>${"Words ".repeat(80)}</p>`,
      category: i % 4 === 0 ? "Other" : "Load",
      isFeatured: false,
    };
    postIds.push((await call<{ id: string }>("POST", "/api/posts", body, tokens[i % WRITERS])).id);
  }
  // The posts the lists show first are the ones read, liked and commented on.
  serveUntilStopped({ url, postIds: postIds.slice(-40), tokens, emails });
  // What the cache did under the load, printed as the server stops.
  process.prependOnceListener("SIGTERM", () => {
    const { hits, misses, invalidated } = app.readCache.stats();
    console.error(`read cache: ${hits} hits, ${misses} misses, ${invalidated} entries dropped by writes`);
  });
}

const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)] as T;

type Request = autocannon.Request;

/** One client's round of 95 requests: 80 reads, 8 likes and 7 comments, spread out. */
function mix(site: Site): Request[] {
  /** `count` requests to what `path()` names each time, anonymous or as a random writer. */
  const reads = (count: number, path: () => string, signedIn = false): Request[] =>
    Array.from({ length: count }, () => ({
      method: "GET",
      setupRequest: (request: Request) => ({
        ...request,
        path: path(),
        headers: { ...BROWSER, ...(signedIn ? { authorization: `Bearer ${pick(site.tokens)}` } : {}) },
      }),
    }));
  /** `count` writes by random writers on the posts being read. */
  const writes = (count: number, method: "PUT" | "POST", path: string, body: () => object): Request[] =>
    Array.from({ length: count }, () => ({
      method,
      setupRequest: (request: Request) => ({
        ...request,
        path,
        headers: { ...BROWSER, "content-type": "application/json", authorization: `Bearer ${pick(site.tokens)}` },
        body: JSON.stringify(body()),
      }),
    }));
  const post = () => `/api/posts/${pick(site.postIds)}?counted=1`;
  const shuffled = [
    ...reads(25, () => "/api/posts"),
    ...reads(10, () => "/api/posts?category=Other"),
    ...reads(5, () => "/api/category"),
    ...reads(20, post),
    ...reads(10, () => "/api/posts", true),
    ...reads(10, post, true),
  ].sort(() => Math.random() - 0.5);
  const likes = writes(8, "PUT", "/api/posts/likes", () => ({ postId: pick(site.postIds) }));
  const comments = writes(7, "POST", "/api/comments", () => ({
    postId: pick(site.postIds),
    description: "A comment under load",
  }));
  if (ONLY === "likes") return likes;
  if (ONLY === "comments") return comments;
  const written = [...likes, ...comments].sort(() => Math.random() - 0.5);
  // The 15 writes spread evenly among the 80 reads: after read i come the writes up to its share.
  const upTo = (index: number) => Math.floor((index * written.length) / shuffled.length);
  return shuffled.flatMap((read, index) => [read, ...written.slice(upTo(index), upTo(index + 1))]);
}

interface Row {
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

function row(name: string, result: autocannon.Result): Row {
  return {
    name,
    requests: result.requests.total,
    rps: Math.round(result.requests.total / SECONDS),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function load() {
  if (ONLY && ONLY !== "likes" && ONLY !== "comments") throw new Error("LOAD_ONLY is likes or comments");
  console.log(
    `${ONLY ? `Only ${ONLY} (not the mix the targets are for)` : "Mixed load"} for ${SECONDS} s on ${process.env.LOAD_DATABASE_URL ? "PostgreSQL" : "PGlite"}: ${CLIENTS} clients (${ONLY ? `${ONLY} only` : "80 % reads, 8 % likes, 7 % comments"}) and ${LOGINS_PER_SECOND} logins a second; the server logs at "info".`,
  );
  const { child, info: site } = await startServerProcess<Site>(import.meta.filename);
  // The load generator is loaded here, not by the server's process (this file, run with --serve), whose memory is
  // measured: it adds about 30 MiB that a server as users run it does not have.
  const { default: autocannon } = await import("autocannon");
  try {
    // Idle is the server at rest: V8 gives back the garbage of start-up and seeding only once it has been quiet for
    // a while (its memory reducer, 10–20 s here), so the RSS 2 s after seeding is shown too, but judged after 30 s.
    await new Promise((resolve) => setTimeout(resolve, Math.min(2, REST_SECONDS) * 1000));
    const justSeededMiB = residentMiB(site.pid);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, REST_SECONDS - 2) * 1000));
    const idleMiB = residentMiB(site.pid);
    const requests = mix(site);
    // Requests must differ per client (setupRequest picks anew each time), so each client starts at another point.
    const [traffic, logins] = await Promise.all([
      autocannon({ url: site.url, connections: CLIENTS, duration: SECONDS, requests }),
      autocannon({
        url: site.url,
        connections: 2,
        duration: SECONDS,
        overallRate: LOGINS_PER_SECOND,
        requests: [
          {
            method: "POST",
            setupRequest: (request) => ({
              ...request,
              path: "/api/users/login",
              headers: { ...BROWSER, "content-type": "application/json" },
              body: JSON.stringify({ email: pick(site.emails), password: PASSWORD }),
            }),
          },
        ],
      }),
    ]);
    const loadedMiB = residentMiB(site.pid);
    const rows = [row("reads, likes, comments", traffic), row("logins", logins)];
    const total = rows.reduce((sum, each) => sum + each.requests, 0);
    // The p99 of both together is at most the larger of their two.
    const all = { rps: Math.round(total / SECONDS), p99: Math.max(...rows.map((each) => each.p99)) };
    for (const each of rows) {
      console.log(
        `${each.name.padEnd(24)} ${String(each.requests).padStart(8)} requests ${String(each.rps).padStart(6)} req/s   p50 ${String(each.p50).padStart(4)} ms   p99 ${String(each.p99).padStart(4)} ms   non-2xx ${each.non2xx}   errors ${each.errors}`,
      );
    }
    console.log(
      `${"all".padEnd(24)} ${String(total).padStart(8)} requests ${String(all.rps).padStart(6)} req/s   p99 ≤ ${all.p99} ms`,
    );
    console.log(
      `server memory (RSS): ${idleMiB} MiB idle (${justSeededMiB} MiB 2 s after seeding), ${loadedMiB} MiB after the load`,
    );
    const misses = [
      ...rows.flatMap((each) => [
        ...(each.errors > 0 ? [`${each.name}: ${each.errors} requests failed or timed out`] : []),
        // Every request here is well-formed and allowed: anything but 2xx means the load tested less than it says.
        ...(each.non2xx > 0 ? [`${each.name}: ${each.non2xx} answers were not 2xx`] : []),
      ]),
      ...(all.rps < TARGET.rps ? [`${all.rps} req/s is under ${TARGET.rps}`] : []),
      ...(all.p99 > TARGET.p99 ? [`p99 ${all.p99} ms is over ${TARGET.p99} ms`] : []),
      ...(idleMiB > TARGET.idleMiB ? [`${idleMiB} MiB idle is over ${TARGET.idleMiB} MiB`] : []),
      ...(loadedMiB > TARGET.loadedMiB ? [`${loadedMiB} MiB after the load is over ${TARGET.loadedMiB} MiB`] : []),
    ];
    console.log(
      misses.length
        ? `\nTargets missed:\n${misses.map((miss) => `  - ${miss}`).join("\n")}`
        : `\nAll targets met: no errors, ≥ ${TARGET.rps} req/s, p99 ≤ ${TARGET.p99} ms, memory ≤ ${TARGET.idleMiB} MiB idle and ≤ ${TARGET.loadedMiB} MiB loaded.`,
    );
    process.exitCode = misses.length ? 1 : 0;
  } finally {
    child.kill("SIGTERM");
  }
}

await (process.argv.includes("--serve") ? serve() : load());
