// `npm run load`: a bounded mixed load against the real app on 127.0.0.1, run as `npm start` runs it (logging each
// request at "info"), every request asking for `Accept-Encoding: br, gzip` as browsers do. 20 clients for
// LOAD_SECONDS (default 60), as fast as the server answers, in two mixes, each reported on its own (`LOAD_MIX=pages`
// or `LOAD_MIX=api` runs one):
// - pages, a real site's readers: 42 % the post list page, 38 % post pages (a few hot posts of 200 read most), 5 % the
//   API's list signed in, 7 % likes, 7 % comments and 1 % logins (an Argon2 check is ~19 ms of a core by design, so a
//   mix with 5 % logins would measure password hashing, not the server);
// - api, what a client of the API sends (a single-page app, a mobile app, an integration): 42 % `GET /api/posts`,
//   38 % `GET /api/posts/{id}` (post ⌊200·r²⌋ of 200, newest first), 5 % `GET /api/posts` signed in, 7 % likes, 7 %
//   comments, 1 % logins.
// 20 signed-in users who each follow 5 others write the 200 posts. Each mix must end with no errors, ≥ 2,000 req/s,
// p99 ≤ 100 ms and ≤ 0.5 ms of the server's CPU per request (its user and system time over the requests it served),
// and the server's memory within bounds. The server runs in its own process; PGlite by default, LOAD_DATABASE_URL (a
// PostgreSQL server) runs it on a fresh database there; LOAD_PORT puts it on that port (0, the default: any free one).
// `LOAD_AGAINST=<dir>` (another checkout with its node_modules) is an A/B run: both servers are seeded alike, then
// loaded in turns (this, that, that, this, … LOAD_TURNS turns each, LOAD_SECONDS in all per side and mix), since
// on a shared machine only figures of one run compare; the targets are judged on this checkout's side.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type autocannon from "autocannon";
import { cpuSeconds, mainThreadCpuSeconds, ROOT, residentMiB, startServerProcess } from "./lib/run.ts";

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
/**
 * How long the seeded server rests before its idle memory is read: V8 (Node 22) gives back start-up's and seeding's
 * garbage once its memory reducer judges the allocation rate low, over samples taken 8 s apart, 35–45 s after they end.
 */
const REST_SECONDS = Number(process.env.LOAD_REST_SECONDS ?? 60);
const MIXES = ["pages", "api"] as const;
type Mix = (typeof MIXES)[number];
const PARTS = ["list", "post", "signed-in", "likes", "comments", "logins"] as const;
type Part = (typeof PARTS)[number];
/** One part of each mix alone (`list`, `post`, `signed-in`, `likes`, `comments`, `logins`): what it costs. */
const ONLY = process.env.LOAD_ONLY as Part | undefined;
const AGAINST = process.env.LOAD_AGAINST ? path.resolve(process.env.LOAD_AGAINST) : undefined;
const TURNS = AGAINST ? Math.max(1, Number(process.env.LOAD_TURNS ?? 6)) : 1;
const CLIENTS = 20;
const TARGET = { rps: 2000, p99: 100, idleMiB: 160, loadedMiB: 300, cpuMsPerRequest: 0.5 };
const USERS = 20;
const FOLLOWS = 5;
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

/**
 * The server side: a fresh site with users who follow each other, categories and posts, made through the API as users
 * would. The server's code is the checkout LOAD_CHECKOUT names (this one by default), so an A/B run seeds both alike.
 */
async function serve() {
  const checkout = process.env.LOAD_CHECKOUT ?? ROOT;
  const { startScratchServer } = (await import(
    pathToFileURL(path.join(checkout, "scripts/lib/scratch-server.ts")).href
  )) as typeof import("./lib/scratch-server.ts");
  const { app, url, serveUntilStopped } = await startScratchServer("load", process.env.LOAD_DATABASE_URL, {
    LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
    // Every simulated user shares one address here; the per-user limits still apply as scaled.
    RATE_LIMIT_FACTOR: "1000",
    // The writers are accounts made a moment ago, who would otherwise publish only a few posts a day.
    NEW_ACCOUNT_POSTS_PER_DAY: "10000",
    ...(process.env.LOAD_SERVER_PORT ? { PORT: process.env.LOAD_SERVER_PORT } : {}),
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
  const emails = Array.from({ length: USERS }, (_, i) => `writer${i}@load.example.com`);
  const tokens: string[] = [];
  const ids: string[] = [];
  for (const email of emails) {
    const registration = { firstName: "Load", lastName: "Writer", email, password: PASSWORD };
    await call("POST", "/api/users/register", {
      ...registration,
      walletAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    });
    const session = await call<{ token: string; id: string }>("POST", "/api/users/login", registration);
    tokens.push(session.token);
    ids.push(session.id);
  }
  for (const [i, token] of tokens.entries()) {
    for (let step = 1; step <= FOLLOWS; step++) {
      await call("PUT", "/api/users/follow", { followId: ids[(i + step) % USERS] }, token);
    }
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
    postIds.push((await call<{ id: string }>("POST", "/api/posts", body, tokens[i % USERS])).id);
  }
  // Newest first: the posts the lists show first, which readers, likes and comments go to most.
  serveUntilStopped({ url, postIds: postIds.reverse(), tokens, emails });
  // What the cache did under the load, printed as the server stops.
  process.prependOnceListener("SIGTERM", () => {
    const { hits, misses, invalidated } = app.readCache.stats();
    console.error(`read cache (${checkout}): ${hits} hits, ${misses} misses, ${invalidated} entries dropped by writes`);
  });
}

const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)] as T;

type Request = autocannon.Request;

/** `count` requests to what `path()` names each time, anonymous or as a random user. */
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

/** `count` writes by random users with the body `body()` makes each time. */
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

/**
 * A post as readers choose one: the first few (the newest, on the list's first screen) far more than the rest; the
 * pages mix skews by r³, the API mix by r² as issue 63 measured it.
 */
const hotPost = (site: Site, power: number) =>
  site.postIds[Math.floor(site.postIds.length * Math.random() ** power)] as string;

/** Each mix's parts (see the top of the file): each one's share of a client's round of 100 requests. */
function mixParts(site: Site, mix: Mix): Record<Part, Request[]> {
  const hot = () => hotPost(site, mix === "api" ? 2 : 3);
  const comments = () => ({ postId: hot(), description: "A comment under load" });
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
    list: reads(site, 42, () => (mix === "api" ? "/api/posts" : "/posts")),
    post: reads(site, 38, () => (mix === "api" ? `/api/posts/${hot()}` : `/posts/${hot()}`)),
    "signed-in": reads(site, 5, () => "/api/posts", true),
    likes: writes(site, 7, "PUT", "/api/posts/likes", () => ({ postId: hot() })),
    comments: writes(site, 7, "POST", "/api/comments", comments),
    logins: [login],
  };
}

/** One client's round of 100 requests in a mix, the writes spread among the reads; or one part alone. */
function requestsOf(site: Site, mix: Mix, only?: Part): Request[] {
  const parts = mixParts(site, mix);
  if (only) return parts[only];
  const reads = shuffle([...parts.list, ...parts.post, ...parts["signed-in"]]);
  return spread(reads, shuffle([...parts.likes, ...parts.comments, ...parts.logins]));
}

/** One side of a run: a checkout's server and what its turns added up to, per mix. */
interface Side {
  label: string;
  site: Site;
  stop: () => void;
  idleMiB: number;
  justSeededMiB: number;
  loadedMiB: number;
  totals: Record<Mix, Totals>;
}

interface Totals {
  requests: number;
  seconds: number;
  cpu: number;
  /** Of `cpu`, the event loop's: the rest is libuv's threads (Argon2, compression) and V8's. */
  mainCpu: number;
  generatorCpu: number;
  p50s: number[];
  p99: number;
  non2xx: number;
  errors: number;
}

const emptyTotals = (): Totals => ({
  requests: 0,
  seconds: 0,
  cpu: 0,
  mainCpu: 0,
  generatorCpu: 0,
  p50s: [],
  p99: 0,
  non2xx: 0,
  errors: 0,
});

/** What a checkout is: its commit, and whether its files differ from it. */
function describe(dir: string) {
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { encoding: "utf8" }).trim();
  try {
    return `${path.basename(dir)} @ ${git("rev-parse", "--short", "HEAD")}${git("status", "--porcelain", "--untracked-files=no") ? "+changes" : ""}`;
  } catch {
    return dir;
  }
}

const format = (value: number) => Math.round(value).toLocaleString("en");

/** One turn of `mix` against `side`: its requests for `seconds`, added to the side's totals and printed. */
async function turn(run: typeof autocannon, side: Side, mix: Mix, seconds: number) {
  const cpuBefore = cpuSeconds(side.site.pid);
  const mainBefore = mainThreadCpuSeconds(side.site.pid);
  const generatorBefore = process.cpuUsage();
  // Requests must differ per client (setupRequest picks anew each time), so each client starts at another point.
  const result = await run({
    url: side.site.url,
    connections: CLIENTS,
    duration: seconds,
    requests: requestsOf(side.site, mix, ONLY),
  });
  const cpu = cpuSeconds(side.site.pid) - cpuBefore;
  const mainCpu = mainThreadCpuSeconds(side.site.pid) - mainBefore;
  const generator = process.cpuUsage(generatorBefore);
  const totals = side.totals[mix];
  totals.mainCpu += mainCpu;
  totals.requests += result.requests.total;
  totals.seconds += seconds;
  totals.cpu += cpu;
  totals.generatorCpu += (generator.user + generator.system) / 1e6;
  totals.p50s.push(result.latency.p50);
  totals.p99 = Math.max(totals.p99, result.latency.p99);
  totals.non2xx += result.non2xx;
  totals.errors += result.errors + result.timeouts;
  console.log(
    `  ${side.label.padEnd(28)} ${format(result.requests.total / seconds).padStart(6)} req/s   p50 ${String(result.latency.p50).padStart(3)} ms   p99 ${String(result.latency.p99).padStart(4)} ms   ${((cpu * 1000) / Math.max(1, result.requests.total)).toFixed(3)} ms CPU a request (${((mainCpu * 1000) / Math.max(1, result.requests.total)).toFixed(3)} on the event loop)   non-2xx ${result.non2xx}   errors ${result.errors + result.timeouts}`,
  );
}

function report(side: Side, mix: Mix) {
  const totals = side.totals[mix];
  const rps = totals.requests / Math.max(1, totals.seconds);
  const cpuMs = (totals.cpu * 1000) / Math.max(1, totals.requests);
  const p50 = [...totals.p50s].sort((a, b) => a - b)[Math.floor(totals.p50s.length / 2)];
  console.log(
    `  ${side.label.padEnd(28)} ${format(rps).padStart(6)} req/s   p50 ${String(p50).padStart(3)} ms   p99 ≤ ${totals.p99} ms   ${cpuMs.toFixed(3)} ms CPU a request (${totals.cpu.toFixed(1)} s over ${totals.requests} requests; ${((totals.mainCpu * 1000) / Math.max(1, totals.requests)).toFixed(3)} ms on the event loop)   non-2xx ${totals.non2xx}   errors ${totals.errors}; the load generator ${totals.generatorCpu.toFixed(1)} s of CPU`,
  );
  return { rps, cpuMs };
}

function misses(side: Side, mix: Mix) {
  const totals = side.totals[mix];
  const rps = totals.requests / Math.max(1, totals.seconds);
  const cpuMs = (totals.cpu * 1000) / Math.max(1, totals.requests);
  return [
    ...(totals.errors > 0 ? [`${mix}: ${totals.errors} requests failed or timed out`] : []),
    // Every request here is well-formed and allowed: anything but 2xx means the load tested less than it says.
    ...(totals.non2xx > 0 ? [`${mix}: ${totals.non2xx} answers were not 2xx`] : []),
    ...(rps < TARGET.rps ? [`${mix}: ${format(rps)} req/s is under ${TARGET.rps}`] : []),
    ...(totals.p99 > TARGET.p99 ? [`${mix}: p99 ${totals.p99} ms is over ${TARGET.p99} ms`] : []),
    ...(cpuMs > TARGET.cpuMsPerRequest
      ? [`${mix}: ${cpuMs.toFixed(3)} ms of server CPU a request is over ${TARGET.cpuMsPerRequest} ms`]
      : []),
  ];
}

async function load() {
  const mixes = process.env.LOAD_MIX ? [process.env.LOAD_MIX as Mix] : [...MIXES];
  if (!mixes.every((mix) => MIXES.includes(mix))) throw new Error(`LOAD_MIX is one of ${MIXES.join(", ")}`);
  if (ONLY && !PARTS.includes(ONLY)) throw new Error(`LOAD_ONLY is one of ${PARTS.join(", ")}`);
  const checkouts = [ROOT, ...(AGAINST ? [AGAINST] : [])];
  // The reader pages are rendered by the build: without one, every page read would fail.
  const unbuilt = checkouts.filter((dir) => !fs.existsSync(path.join(dir, "dist/server/entry-server.js")));
  if (mixes.includes("pages") && unbuilt.length > 0) {
    throw new Error(`The pages mix needs a build: run \`npm run build\` in ${unbuilt.join(" and ")}`);
  }
  console.log(
    `${ONLY ? `Only ${ONLY} (not the mix the targets are for)` : `The ${mixes.join(" and ")} mix${mixes.length > 1 ? "es" : ""}`} for ${SECONDS} s each on ${process.env.LOAD_DATABASE_URL ? "PostgreSQL" : "PGlite"}, ${CLIENTS} clients${AGAINST ? `, against ${describe(AGAINST)} in ${TURNS} turns each` : ""}; the server logs at "info".`,
  );
  const basePort = Number(process.env.LOAD_PORT ?? 0);
  const sides: Side[] = [];
  try {
    for (const [index, checkout] of checkouts.entries()) {
      const { child, info } = await startServerProcess<Site>(import.meta.filename, {
        LOAD_CHECKOUT: checkout,
        ...(basePort ? { LOAD_SERVER_PORT: String(basePort + index) } : {}),
      });
      sides.push({
        label: describe(checkout),
        site: info,
        stop: () => child.kill("SIGTERM"),
        idleMiB: 0,
        justSeededMiB: 0,
        loadedMiB: 0,
        totals: { pages: emptyTotals(), api: emptyTotals() },
      });
    }
    // The load generator is loaded here, not by the servers' processes (this file, run with --serve), whose memory
    // is measured: it adds about 30 MiB that a server as users run it does not have.
    const { default: autocannon } = await import("autocannon");
    // Idle is the server at rest, judged after REST_SECONDS; the RSS 2 s after seeding is shown beside it.
    await new Promise((resolve) => setTimeout(resolve, Math.min(2, REST_SECONDS) * 1000));
    for (const side of sides) side.justSeededMiB = residentMiB(side.site.pid);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, REST_SECONDS - 2) * 1000));
    for (const side of sides) side.idleMiB = residentMiB(side.site.pid);
    for (const mix of mixes) {
      console.log(`\n${mix} mix${ONLY ? `, ${ONLY} only` : ""}:`);
      for (let round = 0; round < TURNS; round++) {
        // This, that, that, this: neither side always runs first, after the other has warmed the machine.
        for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
          await turn(autocannon, side, mix, SECONDS / TURNS);
        }
      }
      if (TURNS > 1) console.log(`${mix} mix, all turns:`);
      const [first, second] = sides.map((side) => report(side, mix));
      if (first && second) {
        console.log(
          `  ${(first.rps / second.rps).toFixed(2)}× the requests a second, ${(first.cpuMs / second.cpuMs).toFixed(2)}× the CPU a request`,
        );
      }
    }
    for (const side of sides) side.loadedMiB = residentMiB(side.site.pid);
    console.log("");
    for (const side of sides) {
      console.log(
        `server memory (RSS), ${side.label}: ${side.idleMiB} MiB idle (${side.justSeededMiB} MiB 2 s after seeding), ${side.loadedMiB} MiB after the load`,
      );
    }
    const [own] = sides as [Side];
    const missed = [
      ...mixes.flatMap((mix) => misses(own, mix)),
      ...(own.idleMiB > TARGET.idleMiB ? [`${own.idleMiB} MiB idle is over ${TARGET.idleMiB} MiB`] : []),
      ...(own.loadedMiB > TARGET.loadedMiB
        ? [`${own.loadedMiB} MiB after the load is over ${TARGET.loadedMiB} MiB`]
        : []),
    ];
    console.log(
      missed.length
        ? `\nTargets missed (${own.label}):\n${missed.map((miss) => `  - ${miss}`).join("\n")}`
        : `\nAll targets met (${own.label}): no errors, ≥ ${TARGET.rps} req/s, p99 ≤ ${TARGET.p99} ms, ≤ ${TARGET.cpuMsPerRequest} ms of CPU a request, memory ≤ ${TARGET.idleMiB} MiB idle and ≤ ${TARGET.loadedMiB} MiB loaded.`,
    );
    process.exitCode = missed.length ? 1 : 0;
  } finally {
    for (const side of sides) side.stop();
  }
}

await (process.argv.includes("--serve") ? serve() : load());
