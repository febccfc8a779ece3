import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { SEARCH_WINDOW } from "../../../src/server/services/content/search.ts";
import { EXCERPT_SOURCE_CHARS } from "../../../src/server/services/core/excerpt.ts";
import { buildTestApp } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { makeAdmin, signUp } from "../../support/users.ts";

const cursorOf = (parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString("base64url");

describe.each(databaseTargets)("what one search may cost, on $name", (target) => {
  let app: App;
  let best: { id: string };
  beforeAll(async () => {
    app = await buildTestApp(await target.open());
    const author = await signUp(app);
    await makeAdmin(app, author.id);
    const topic = await createCategory(app, author);
    // The best match is the oldest post: its title says the word; 1,100 newer posts say it in their bodies.
    best = await createPost(app, author, topic.title, { title: "Ledger", description: "<p>ledger ledger</p>" });
    await app.db.execute(sql`
      insert into posts (title, description, category_id, user_id, created_at, published_at)
      select 'Filler ' || g, '<p>A ledger entry ' || g || '</p>', ${topic.id}::uuid, ${author.id}::uuid,
             now() + (g || ' seconds')::interval, now() + (g || ' seconds')::interval
      from generate_series(1, ${SEARCH_WINDOW + 100}) g`);
  });
  afterAll(() => app.close());

  const search = (query: string) => app.inject({ method: "GET", url: `/api/posts?${query}` });

  it("ranks the newest stretch of matches first, whatever a cursor says about stretches", async () => {
    const first = (await search("q=ledger&limit=5")).json();
    expect(first.items.map((post: { id: string }) => post.id)).not.toContain(best.id);
    // The old shape named both ends of the stretch: [null, null] meant "rank every match".
    const oldShape = cursorOf([null, null, 1e6, "9999-12-31T23:59:59.999999Z", "ffffffff-ffff-4fff-bfff-ffffffffffff"]);
    expect((await search(`q=ledger&cursor=${oldShape}`)).statusCode).toBe(400);
    // A forged cursor still reads one stretch: the best-ranked match of all, outside it, does not come up.
    const forged = cursorOf([null, 1e6, "9999-12-31T23:59:59.999999Z", "ffffffff-ffff-4fff-bfff-ffffffffffff"]);
    const page = await search(`q=ledger&limit=100&cursor=${forged}`);
    expect(page.statusCode).toBe(200);
    expect(page.json().items.map((post: { id: string }) => post.id)).not.toContain(best.id);
    // Paging on reaches it, in the last stretch.
    let cursor: string | null = first.nextCursor;
    let pages = 0;
    let found = false;
    while (cursor && !found && pages < 20) {
      const next = (await search(`q=ledger&limit=100&cursor=${cursor}`)).json();
      found = next.items.some((post: { id: string }) => post.id === best.id);
      cursor = next.nextCursor;
      pages++;
    }
    expect(found).toBe(true);
  });

  it("cuts excerpts from the first part of a long body only", async () => {
    const author = await signUp(app);
    await makeAdmin(app, author.id);
    const topic = await createCategory(app, author);
    const filler = "lorem ipsum dolor sit amet ".repeat(Math.ceil(100_000 / 27)).slice(0, 99_000);
    const long = await createPost(app, author, topic.title, {
      title: "A very long read",
      description: `<p>${filler} quokka at the very end</p>`,
    });
    const response = await search(`q=quokka&category=${encodeURIComponent(topic.title)}`);
    const [post] = response.json().items;
    expect(post.id).toBe(long.id);
    const excerpt = post.excerpt.map((part: { text: string }) => part.text).join("");
    expect(excerpt.length).toBeLessThan(EXCERPT_SOURCE_CHARS);
    expect(excerpt).toContain("lorem ipsum");
    expect(excerpt).not.toContain("quokka");
  });
});
