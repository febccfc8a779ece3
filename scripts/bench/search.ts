// Search for `npm run bench`: post bodies written from a vocabulary whose words are as unevenly common as a real
// blog's (a few words in most posts, most words in few), and the time uncached searches take through the whole
// request path, over a mix of what readers type.
import { sql } from "drizzle-orm";
import type { App } from "../../src/server/app.ts";
import { EXCERPT_SOURCE_CHARS } from "../../src/server/services/core/excerpt.ts";

const VOCABULARY = `blockchain wallet ledger contract token chain block network node validator protocol consensus
  gas fee transaction address signature hash merkle rollup bridge oracle liquidity market price trading exchange
  stake reward governance proposal vote community developer library compiler language rust solidity typescript
  react server client database index query cache latency throughput benchmark memory thread kernel storage disk
  cloud container cluster deploy pipeline release version upgrade security audit exploit vulnerability privacy
  identity key encryption zero knowledge proof scaling sharding layer mainnet testnet faucet explorer metamask
  writer reader story essay article draft editor publish newsletter audience podcast video interview review
  coffee bread garden travel mountain river ocean forest city village music guitar piano painting photography
  design typography colour layout interface keyboard screen phone laptop battery charger camera lens light
  morning evening winter summer autumn spring weather rain snow wind cloud sunrise sunset history future
  economy policy regulation law court report research science physics biology chemistry mathematics theorem
  algorithm graph tree sorting search ranking relevance recall precision dataset model training inference
  quokka pangolin axolotl narwhal okapi platypus capybara tardigrade`
  .split(/\s+/)
  .filter(Boolean);

/** Words beyond the vocabulary: a long tail of rare ones ("w1000"), as real text has. */
const WORDS = 20_000;

/**
 * Rewrites every post's body: 80 words, word k of WORDS drawn with a chance falling as 1/k (Zipf's law, as in real
 * text), the topical vocabulary first, so "blockchain" is in nearly every post and "w15000" in a handful. The search
 * triggers index them as they change.
 */
export async function writeBodies(db: App["db"]) {
  await db.execute(sql`
    update posts p set description = '<p>' || b.body || '</p>'
    from (
      select id, (select string_agg(coalesce(v.words[k], 'w' || k), ' ')
                  from generate_series(1, 80) w,
                       (select string_to_array(${VOCABULARY.join(" ")}, ' ') as words) v,
                       lateral (select floor(exp(random() * ln(${WORDS})))::int as k) pick
                  -- A reference to the outer row, so the body is drawn anew for each post.
                  where posts.id is not null) as body
      from posts
    ) b
    where p.id = b.id`);
}

/** What readers type: words in most posts, in some and in few, prefixes, phrases, an exclusion, two or three words. */
const QUERIES = [
  "blockchain",
  "wallet signature",
  "w700",
  "w15000",
  "capyb",
  "tardigr",
  '"smart contract"',
  '"zero knowledge" proof',
  "ledger -w300",
  "mountain river",
  "security audit exploit",
];
/**
 * Bodies at the size limit: 150 extra posts, the oldest of all (so no other measurement meets them), with 100 KB
 * bodies that all say "longread". Reports a search page of 20 of them through the request path (most of which is
 * sending 2 MB of bodies, as any list of such posts does), and what their excerpts cost in the database, cut from a
 * body's first EXCERPT_SOURCE_CHARS as the server does and, for comparison, from the whole body. Milliseconds.
 */
export async function measureLongBodies(app: App, rounds = 15) {
  const body = `<p>${`longread ${VOCABULARY.slice(0, 60).join(" ")} `.repeat(220)}</p>`;
  await app.db.execute(sql`
    insert into posts (title, description, category_id, user_id, created_at, published_at)
    select 'Long read ' || g, ${body}, (select id from categories limit 1), (select id from users limit 1),
           timestamptz '2000-01-01' + (g || ' seconds')::interval, timestamptz '2000-01-01' + (g || ' seconds')::interval
    from generate_series(1, 150) g`);
  const time = async (run: () => Promise<unknown>) => {
    const times: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const start = performance.now();
      await run();
      if (round > 2) times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    return Number((times[Math.floor(times.length / 2)] ?? 0).toFixed(1));
  };
  const excerpts = (chars: number) =>
    time(() =>
      app.db.execute(sql`
        select ts_headline('english', post_plain_text(regexp_replace(left(description, ${chars}), '<[^>]*$', '')),
                           websearch_to_tsquery('english', 'longread'))
        from posts where title like 'Long read %' limit 100`),
    );
  const request = await time(async () => {
    app.readCache.invalidate();
    const response = await app.inject({ method: "GET", url: "/api/posts?q=longread&limit=20" });
    if (response.statusCode !== 200) throw new Error(`long-body search: ${response.statusCode} ${response.body}`);
  });
  const result = { request, excerpts: await excerpts(EXCERPT_SOURCE_CHARS), wholeBodies: await excerpts(200_000) };
  await app.db.execute(
    sql`delete from posts where title like 'Long read %' and published_at < timestamptz '2001-01-01'`,
  );
  app.readCache.invalidate();
  return result;
}

/** The worst case, reported apart: leaving out a word nearly every post has rechecks every candidate. */
export const WORST_QUERY = "ledger -blockchain";

/** Milliseconds per uncached search through `app.inject` (routing, validation, query, serialising): p50, p99. */
export async function measureSearch(app: App, rounds = 12) {
  const get = async (url: string) => {
    app.readCache.invalidate();
    const start = performance.now();
    const response = await app.inject({ method: "GET", url });
    const ms = performance.now() - start;
    if (response.statusCode !== 200) throw new Error(`search ${url}: ${response.statusCode} ${response.body}`);
    return { ms, body: response.json() as { items: unknown[]; nextCursor: string | null } };
  };
  const worst: number[] = [];
  for (let round = 0; round < 5; round++) worst.push((await get(`/api/posts?q=${encodeURIComponent(WORST_QUERY)}`)).ms);
  const urls = QUERIES.flatMap((q) => {
    const query = new URLSearchParams({ q, limit: "20" });
    return [`/api/posts?${query}`, `/api/posts?${query}&category=${encodeURIComponent("Category 3")}`];
  });
  // Second pages, from the first pages' cursors.
  for (const q of QUERIES.slice(0, 3)) {
    const { body } = await get(`/api/posts?${new URLSearchParams({ q, limit: "20" })}`);
    if (body.nextCursor) urls.push(`/api/posts?${new URLSearchParams({ q, limit: "20", cursor: body.nextCursor })}`);
  }
  for (const url of urls) await get(url); // warm-up
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) for (const url of urls) times.push((await get(url)).ms);
  times.sort((a, b) => a - b);
  const at = (share: number) =>
    Number((times[Math.min(times.length - 1, Math.floor(share * times.length))] ?? 0).toFixed(1));
  return {
    p50: at(0.5),
    p99: at(0.99),
    samples: times.length,
    worst: Number((worst.sort((a, b) => a - b)[2] ?? 0).toFixed(1)),
  };
}
