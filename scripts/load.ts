// `npm run load`: a bounded mixed load against the real app on 127.0.0.1, run as `npm start` runs it (logging each
// request at "info"), every request asking for `Accept-Encoding: br, gzip` as browsers do. 20 clients for
// LOAD_SECONDS (default 60), as fast as the server answers, in the mix of a real site: 42 % the post list page, 38 %
// post pages (a few hot posts of 200 read most), 5 % the list signed in, 7 % likes, 7 % comments and 1 % logins (an
// Argon2 check is ~19 ms of a core by design, so a mix with 5 % logins would measure password hashing, not the
// server). It must end with no errors, ≥ 2,000 req/s, p99 ≤ 100 ms and ≤ 0.5 ms of the server's CPU per request (its
// user and system time over the requests it served), and the server's memory within bounds. `LOAD_MIX=classic`
// runs the earlier mix (80 % API reads, 8 % likes, 7 % comments, 20 logins a second beside them). The server runs in
// its own process; PGlite by default, LOAD_DATABASE_URL (a PostgreSQL server) runs it on a fresh database there.
import type autocannon from "autocannon";
import { cpuSeconds, residentMiB, startServerProcess } from "./lib/run.ts";
import { startScratchServer } from "./lib/scratch-server.ts";

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
/**
 * How long the seeded server rests before its idle memory is read: V8 (Node 22) gives back start-up's and seeding's
 * garbage once its memory reducer judges the allocation rate low, over samples taken 8 s apart, 35–45 s after they end.
 */
const REST_SECONDS = Number(process.env.LOAD_REST_SECONDS ?? 60);
/** One part of the default mix alone (`list`, `post`, `signed-in`, `likes`, `comments`, `logins`): what it costs. */
const ONLY = process.env.LOAD_ONLY as Part | undefined;
const CLASSIC = process.env.LOAD_MIX === "classic";
/** Logins beside the classic mix (the default mix has its own 1 %). */
const LOGINS_PER_SECOND = CLASSIC ? Number(process.env.LOGINS_PER_SECOND ?? 20) : 0;
const CLIENTS = 20;
const TARGET = { rps: 2000, p99: 100, idleMiB: 160, loadedMiB: 300, cpuMsPerRequest: 0.5 };
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
  // Newest first: the posts the lists show first, which readers, likes and comments go to most.
  serveUntilStopped({ url, postIds: postIds.reverse(), tokens, emails });
  // What the cache did under the load, printed as the server stops.
  process.prependOnceListener("SIGTERM", () => {
    const { hits, misses, invalidated } = app.readCache.stats();
    console.error(`read cache: ${hits} hits, ${misses} misses, ${invalidated} entries dropped by writes`);
  });
}

const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)] as T;

type Request = autocannon.Request;

/** `count` requests to what `path()` names each time, anonymous or as a random writer. */
function reads(site: Site, count: number, path: () => string, signedIn = false): Request[] {
  return Array.from({ length: count }, () => ({
    method: "GET",
    setupRequest: (request: Request) => ({
      ...request,
      path: path(),
      headers: { ...BROWSER, ...(signedIn ? { authorization: `Bearer ${pick(site.tokens)}` } : {}) },
    }),
  }));
}

/** `count` writes by random writers on the posts `post()` picks. */
function writes(site: Site, count: number, method: "PUT" | "POST", path: string, body: () => object): Request[] {
  return Array.from({ length: count }, () => ({
    method,
    setupRequest: (request: Request) => ({
      ...request,
      path,
      headers: { ...BROWSER, "content-type": "application/json", authorization: `Bearer ${pick(site.tokens)}` },
      body: JSON.stringify(body()),
    }),
  }));
}

/** `later` spread evenly among `first`: after item i of `first` come the items of `later` up to its share. */
function spread(first: Request[], later: Request[]) {
  const upTo = (index: number) => Math.floor((index * later.length) / first.length);
  return first.flatMap((item, index) => [item, ...later.slice(upTo(index), upTo(index + 1))]);
}
const shuffle = (items: Request[]) => items.sort(() => Math.random() - 0.5);

/** A post as readers choose one: the first few (the newest, on the list's first screen) far more than the rest. */
const hot = (site: Site) => site.postIds[Math.floor(site.postIds.length * Math.random() ** 3)] as string;

const PARTS = ["list", "post", "signed-in", "likes", "comments", "logins"] as const;
type Part = (typeof PARTS)[number];

/** The default mix's parts (see the top of the file): each one's share of a client's round of 100 requests. */
function mixParts(site: Site): Record<Part, Request[]> {
  const comments = () => ({ postId: hot(site), description: "A comment under load" });
  const login: Request = {
    method: "POST",
    setupRequest: (request: Request) => ({
      ...request,
      path: "/api/users/login",
      headers: { ...BROWSER, "content-type": "application/json" },
      body: JSON.stringify({ email: pick(site.emails), password: PASSWORD }),
    }),
  };
  return {
    list: reads(site, 42, () => "/posts"),
    post: reads(site, 38, () => `/posts/${hot(site)}`),
    "signed-in": reads(site, 5, () => "/api/posts", true),
    likes: writes(site, 7, "PUT", "/api/posts/likes", () => ({ postId: hot(site) })),
    comments: writes(site, 7, "POST", "/api/comments", comments),
    logins: [login],
  };
}

/** One client's round of 100 requests in the default mix, the writes spread among the reads; or one part alone. */
function realisticMix(site: Site, only?: Part): Request[] {
  const parts = mixParts(site);
  if (only) return parts[only];
  const pages = shuffle([...parts.list, ...parts.post, ...parts["signed-in"]]);
  return spread(pages, shuffle([...parts.likes, ...parts.comments, ...parts.logins]));
}

/** One client's round of 95 requests in the classic mix: 80 API reads, 8 likes and 7 comments, spread out. */
function classicMix(site: Site): Request[] {
  const recent = site.postIds.slice(0, 40);
  const post = () => `/api/posts/${pick(recent)}?counted=1`;
  const likes = writes(site, 8, "PUT", "/api/posts/likes", () => ({ postId: pick(recent) }));
  const comments = writes(site, 7, "POST", "/api/comments", () => ({
    postId: pick(recent),
    description: "A comment under load",
  }));
  const shuffled = shuffle([
    ...reads(site, 25, () => "/api/posts"),
    ...reads(site, 10, () => "/api/posts?category=Other"),
    ...reads(site, 5, () => "/api/category"),
    ...reads(site, 20, post),
    ...reads(site, 10, () => "/api/posts", true),
    ...reads(site, 10, post, true),
  ]);
  return spread(shuffled, shuffle([...likes, ...comments]));
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
  if (ONLY && !PARTS.includes(ONLY)) throw new Error(`LOAD_ONLY is one of ${PARTS.join(", ")}`);
  if (ONLY && CLASSIC) throw new Error("LOAD_ONLY takes a part of the default mix, not of LOAD_MIX=classic");
  console.log(
    `${ONLY ? `Only ${ONLY} (not the mix the targets are for)` : CLASSIC ? "The classic mix" : "A real site's mix"} for ${SECONDS} s on ${process.env.LOAD_DATABASE_URL ? "PostgreSQL" : "PGlite"}: ${CLIENTS} clients (${ONLY ? `${ONLY} only` : CLASSIC ? `80 % API reads, 8 % likes, 7 % comments, and ${LOGINS_PER_SECOND} logins a second` : "42 % the list page, 38 % post pages, 5 % the list signed in, 7 % likes, 7 % comments, 1 % logins"}); the server logs at "info".`,
  );
  const { child, info: site } = await startServerProcess<Site>(import.meta.filename);
  // The load generator is loaded here, not by the server's process (this file, run with --serve), whose memory is
  // measured: it adds about 30 MiB that a server as users run it does not have.
  const { default: autocannon } = await import("autocannon");
  try {
    // Idle is the server at rest, judged after REST_SECONDS; the RSS 2 s after seeding is shown beside it.
    await new Promise((resolve) => setTimeout(resolve, Math.min(2, REST_SECONDS) * 1000));
    const justSeededMiB = residentMiB(site.pid);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, REST_SECONDS - 2) * 1000));
    const idleMiB = residentMiB(site.pid);
    const requests = CLASSIC ? classicMix(site) : realisticMix(site, ONLY);
    const cpuBefore = cpuSeconds(site.pid);
    const generatorBefore = process.cpuUsage();
    // Requests must differ per client (setupRequest picks anew each time), so each client starts at another point.
    const [traffic, logins] = await Promise.all([
      autocannon({ url: site.url, connections: CLIENTS, duration: SECONDS, requests }),
      LOGINS_PER_SECOND > 0
        ? autocannon({
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
          })
        : null,
    ]);
    const cpu = cpuSeconds(site.pid) - cpuBefore;
    const generator = process.cpuUsage(generatorBefore);
    const loadedMiB = residentMiB(site.pid);
    const rows = [
      row(ONLY ?? (CLASSIC ? "reads, likes, comments" : "the mix"), traffic),
      ...(logins ? [row("logins", logins)] : []),
    ];
    const total = rows.reduce((sum, each) => sum + each.requests, 0);
    // The p99 of both together is at most the larger of their two.
    const all = { rps: Math.round(total / SECONDS), p99: Math.max(...rows.map((each) => each.p99)) };
    const cpuMs = (cpu * 1000) / Math.max(1, total);
    for (const each of rows) {
      console.log(
        `${each.name.padEnd(24)} ${String(each.requests).padStart(8)} requests ${String(each.rps).padStart(6)} req/s   p50 ${String(each.p50).padStart(4)} ms   p99 ${String(each.p99).padStart(4)} ms   non-2xx ${each.non2xx}   errors ${each.errors}`,
      );
    }
    console.log(
      `${"all".padEnd(24)} ${String(total).padStart(8)} requests ${String(all.rps).padStart(6)} req/s   p99 ≤ ${all.p99} ms`,
    );
    console.log(`server CPU: ${cpu.toFixed(1)} s over ${total} requests = ${cpuMs.toFixed(3)} ms a request`);
    // On a machine of few cores the load generator takes its share of them: what the server could have had.
    console.log(`load generator CPU: ${((generator.user + generator.system) / 1e6).toFixed(1)} s on the same machine`);
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
      ...(cpuMs > TARGET.cpuMsPerRequest
        ? [`${cpuMs.toFixed(3)} ms of server CPU a request is over ${TARGET.cpuMsPerRequest} ms`]
        : []),
      ...(idleMiB > TARGET.idleMiB ? [`${idleMiB} MiB idle is over ${TARGET.idleMiB} MiB`] : []),
      ...(loadedMiB > TARGET.loadedMiB ? [`${loadedMiB} MiB after the load is over ${TARGET.loadedMiB} MiB`] : []),
    ];
    console.log(
      misses.length
        ? `\nTargets missed:\n${misses.map((miss) => `  - ${miss}`).join("\n")}`
        : `\nAll targets met: no errors, ≥ ${TARGET.rps} req/s, p99 ≤ ${TARGET.p99} ms, ≤ ${TARGET.cpuMsPerRequest} ms of CPU a request, memory ≤ ${TARGET.idleMiB} MiB idle and ≤ ${TARGET.loadedMiB} MiB loaded.`,
    );
    process.exitCode = misses.length ? 1 : 0;
  } finally {
    child.kill("SIGTERM");
  }
}

await (process.argv.includes("--serve") ? serve() : load());
