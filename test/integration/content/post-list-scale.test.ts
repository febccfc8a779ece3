import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { openDatabase } from "../../../src/server/db/client.ts";
import { encodeCursor } from "../../../src/server/infra/cursor.ts";
import { SEARCH_WINDOW } from "../../../src/server/services/content/search.ts";
import { buildTestApp } from "../../support/app.ts";
import { insertCategory, insertUser } from "../../support/builders.ts";
import { bearer, signUp } from "../../support/users.ts";

/** Every statement the app sends, counted through Drizzle's logger. */
const queries: string[] = [];
const logged: { query: string; params: unknown[] }[] = [];

describe("the post list over 10,000 posts", () => {
  let app: App;
  let deepCursor: string;
  beforeAll(async () => {
    const database = await openDatabase({
      logger: {
        logQuery: (query, params) => {
          queries.push(query);
          logged.push({ query, params });
        },
      },
    });
    await database.migrate();
    const author = await insertUser(database.db);
    const category = await insertCategory(database.db, author.id, "Scale");
    await database.db.execute(sql`
      insert into posts (title, description, category_id, user_id, is_featured, created_at, published_at)
      select 'Post ' || g, '<p>' || repeat('A paragraph of words, number ' || g || '. ', 20) || '</p>', ${category.id},
             ${author.id}, g % 500 = 0, t, t
      from generate_series(1, 10000) g cross join lateral (select now() - (g || ' seconds')::interval as t) at`);
    await database.db.execute(sql`
      insert into comments (post_id, user_id, description) select id, ${author.id}, 'c' from posts where title like 'Post 1%'`);
    // A word in 1 post of 100, for search.
    await database.db.execute(sql`
      update posts set description = '<p>A blockchain note</p>' where title like '%00'`);
    const { rows } = (await database.db.execute(sql`
        select is_featured, to_char(published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, id from posts
        order by is_featured desc, published_at desc, id desc offset 9000 limit 1`)) as unknown as {
      rows: { is_featured: boolean; at: string; id: string }[];
    };
    const row = rows[0];
    deepCursor = encodeCursor([row?.is_featured ?? false, row?.at ?? "", row?.id ?? ""]);
    app = await buildTestApp(database);
  }, 120_000);
  afterAll(() => app.close());

  /** Queries one request sends when nothing is cached (answers are cached after a first read). */
  async function countQueries(url: string, headers: Record<string, string> = {}) {
    app.readCache.invalidate();
    queries.length = 0;
    logged.length = 0;
    const response = await app.inject({ method: "GET", url, headers });
    expect(response.statusCode).toBe(200);
    return { count: queries.length, body: response.json() };
  }

  it("answers the first and a deep page in the same, constant number of queries", async () => {
    const first = await countQueries("/api/posts?limit=20");
    const deep = await countQueries(`/api/posts?limit=20&cursor=${deepCursor}`);
    const big = await countQueries(`/api/posts?limit=100&cursor=${deepCursor}`);
    expect(first.body.items).toHaveLength(20);
    expect(deep.body.items).toHaveLength(20);
    expect(big.body.items).toHaveLength(100);
    expect(first.count).toBe(1);
    expect(deep.count).toBe(first.count);
    expect(big.count).toBe(first.count);
    // Featured posts come first: 20 of the 10,000 are featured.
    expect(first.body.items.every((post: { isFeatured: boolean }) => post.isFeatured)).toBe(true);
    expect(deep.body.items.some((post: { isFeatured: boolean }) => post.isFeatured)).toBe(false);
  });

  it("adds one query for a signed-in reader's own reactions, and one to check a new session", async () => {
    const reader = await signUp(app);
    const anonymous = await countQueries("/api/posts?limit=20");
    const newSession = await countQueries("/api/posts?limit=20", bearer(reader));
    const first = await countQueries("/api/posts?limit=20", bearer(reader));
    const deep = await countQueries(`/api/posts?limit=50&cursor=${deepCursor}`, bearer(reader));
    expect(newSession.count).toBe(anonymous.count + 2);
    expect(first.count).toBe(anonymous.count + 1);
    expect(deep.count).toBe(anonymous.count + 1);
    // Once cached, the reader's page costs only their reactions, and then nothing until something changes.
    await app.inject({ method: "GET", url: "/api/posts?limit=20", headers: bearer(reader) });
    queries.length = 0;
    await app.inject({ method: "GET", url: "/api/posts?limit=20", headers: bearer(reader) });
    expect(queries).toEqual([]);
  });

  it("reads each page from an index in list order, never sorting the whole table", async () => {
    await app.db.execute(sql`analyze`);
    for (const [url, index] of [
      ["/api/posts?limit=20", /Index Scan using posts_list_idx/],
      [`/api/posts?limit=20&cursor=${deepCursor}`, /Index Scan using posts_list_idx/],
      // Every post here is in this category, so either index serves it.
      ["/api/posts?limit=20&category=Scale", /Index Scan using posts_(category_)?list_idx/],
    ] as const) {
      await countQueries(url);
      const plan = await planOf(url, '"posts"."is_featured" desc');
      expect(plan, url).toMatch(index);
      expect(plan, url).not.toMatch(/Seq Scan on posts/);
    }
  });

  it("finds search matches through the full-text index, and pages them with it", async () => {
    await app.db.execute(sql`analyze`);
    const first = await countQueries("/api/posts?q=bloc&limit=20");
    expect(first.body.items).toHaveLength(20);
    // Where the stretch of matches ends, then the ranked page within it.
    expect(first.count).toBe(2);
    const deep = await countQueries(`/api/posts?q=bloc&limit=20&cursor=${first.body.nextCursor}`);
    expect(deep.body.items).toHaveLength(20);
    for (const url of ["/api/posts?q=bloc&limit=20", `/api/posts?q=blockchain&cursor=${first.body.nextCursor}`]) {
      const plan = await planOf(url, "ts_rank");
      expect(plan, url).toMatch(/Bitmap Index Scan on posts_search_idx/);
      expect(plan, url).not.toMatch(/Seq Scan on posts/);
    }
  });

  it("pages through a word in 4,000 posts, stretch by stretch, each once, with every page as cheap as the first", async () => {
    const { rows } = (await app.db.execute(
      sql`update posts set description = description || '<p>pangolin</p>' where title ~ '^Post [0-9]*[0-3]$' returning id`,
    )) as unknown as { rows: { id: string }[] };
    expect(rows).toHaveLength(4000);
    const expected = new Set(rows.map((row) => row.id));
    const seen: string[] = [];
    const counts: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { count: number; body: { items: { id: string }[]; nextCursor: string | null } } = await countQueries(
        `/api/posts?q=pangolin&limit=100${cursor ? `&cursor=${cursor}` : ""}`,
      );
      seen.push(...page.body.items.map((post) => post.id));
      counts.push(page.count);
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(expected.size);
    expect(new Set(seen)).toEqual(expected);
    // A page finds where its stretch ends once (one walk), then ranks within it; crossing into the next stretch adds
    // one more of each. Never more, however many posts match.
    expect(Math.max(...counts)).toBeLessThanOrEqual(4);
    expect(SEARCH_WINDOW).toBeLessThan(expected.size);
  });

  /** The plan of the query a request sent that contains `marker`. */
  async function planOf(url: string, marker: string) {
    await countQueries(url);
    const list = logged.find(({ query }) => query.includes(marker));
    if (!list) throw new Error(`no matching query for ${url}`);
    // EXPLAIN takes no parameters, so the logged ones go in as literals.
    const literal = (value: unknown) =>
      typeof value === "string" ? `'${value.replaceAll("'", "''")}'` : String(value);
    const inlined = list.query.replace(/\$(\d+)/g, (_, n) => literal(list.params[Number(n) - 1]));
    const { rows } = (await app.db.execute(sql.raw(`explain ${inlined}`))) as unknown as {
      rows: { "QUERY PLAN": string }[];
    };
    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  }
});
