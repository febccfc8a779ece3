import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { buildTestApp } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

interface Found {
  id: string;
  title: string;
  category: string;
  excerpt?: { text: string; match: boolean }[];
}
type Session = Awaited<ReturnType<typeof signUp>>;

describe.each(databaseTargets)("search on $name", (target) => {
  let app: App;
  let admin: Session;
  let ada: Session;
  let alan: Session;
  const ids: Record<string, string> = {};

  const search = async (query: Record<string, string>) => {
    const response = await app.inject({ method: "GET", url: `/api/posts?${new URLSearchParams(query)}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { items: Found[]; nextCursor: string | null };
  };
  const titles = async (q: string, more: Record<string, string> = {}) =>
    (await search({ q, ...more })).items.map((post) => post.title);

  beforeAll(async () => {
    app = await buildTestApp(await target.open());
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
    ada = await signUp(app, { firstName: "Ada", lastName: "Lovelace" });
    alan = await signUp(app, { firstName: "Alan", lastName: "Turing" });
    await createCategory(app, admin, "Ethereum");
    await createCategory(app, admin, "Cooking");
    const write = async (author: Session, category: string, title: string, description: string) => {
      ids[title] = (await createPost(app, author, category, { title, description })).id;
    };
    // Oldest first: among equal ranks the newest comes first.
    await write(ada, "Ethereum", "Notes on ledgers", "<p>A blockchain is a ledger that nobody owns.</p>");
    await write(alan, "Ethereum", "Blockchain basics", "<p>What a chain of blocks is, and why it matters.</p>");
    await write(ada, "Cooking", "Sourdough", "<p>Bread, flour and <strong>patience</strong>. Smart contract free.</p>");
    await write(
      alan,
      "Cooking",
      "Contract smart cooking",
      "<p>The words appear, but not as a phrase: contract smart.</p>",
    );
    await write(alan, "Ethereum", "A smart contract primer", "<p>A smart contract runs on a blockchain.</p>");
    await write(
      ada,
      "Cooking",
      "Escaping",
      "<p>Writing &lt;img src=x onerror=alert(1)&gt; in a post about recipes &amp; tagliatelle</p>",
    );
  });
  afterAll(() => app.close());

  it("finds a post by a word of its body, not only its title", async () => {
    expect(await titles("nobody")).toEqual(["Notes on ledgers"]);
    expect(await titles("patience")).toEqual(["Sourdough"]);
  });

  it("finds words by their beginning, and by other forms of the same word", async () => {
    expect(await titles("bloc")).toEqual(
      expect.arrayContaining(["Notes on ledgers", "Blockchain basics", "A smart contract primer"]),
    );
    expect(await titles("bloc")).toHaveLength(3);
    expect(await titles("ledgers")).toEqual(["Notes on ledgers"]);
    expect(await titles("tagliat")).toEqual(["Escaping"]);
  });

  it("ranks a title match above a body match, and the newest first among equals", async () => {
    // "Blockchain basics" has the word in its title; the other two only in their bodies, the primer newer.
    expect(await titles("blockchain")).toEqual(["Blockchain basics", "A smart contract primer", "Notes on ledgers"]);
  });

  it("searches the category and the author's name", async () => {
    expect(await titles("cooking")).toEqual(
      expect.arrayContaining(["Sourdough", "Contract smart cooking", "Escaping"]),
    );
    expect(await titles("cooking")).toHaveLength(3);
    expect((await titles("lovelace")).sort()).toEqual(["Escaping", "Notes on ledgers", "Sourdough"]);
  });

  it("keeps a quoted phrase's words together and in order", async () => {
    expect((await titles('"smart contract"')).sort()).toEqual(["A smart contract primer", "Sourdough"]);
    expect((await titles("smart contract")).sort()).toEqual([
      "A smart contract primer",
      "Contract smart cooking",
      "Sourdough",
    ]);
  });

  it("leaves out posts with an excluded word", async () => {
    expect((await titles("smart contract -cooking")).sort()).toEqual(["A smart contract primer"]);
    expect((await titles("blockchain -ledger")).sort()).toEqual(["A smart contract primer", "Blockchain basics"]);
  });

  it("combines the words with the category and author filters", async () => {
    expect(await titles("smart", { category: "cooking" })).toEqual(
      expect.arrayContaining(["Sourdough", "Contract smart cooking"]),
    );
    expect(await titles("smart", { category: "Cooking", author: ada.id })).toEqual(["Sourdough"]);
    expect(await titles("blockchain", { author: alan.id })).toEqual(["Blockchain basics", "A smart contract primer"]);
  });

  it("marks the matching words in a short excerpt of the text", async () => {
    const [post] = (await search({ q: "nobody" })).items;
    expect(post?.excerpt).toEqual([
      // A fragment starts and ends at a word that counts: "A" and the full stop are left out.
      { text: "blockchain is a ledger that ", match: false },
      { text: "nobody", match: true },
      { text: " owns", match: false },
    ]);
    const [prefixed] = (await search({ q: "patien" })).items;
    expect(prefixed?.excerpt?.filter((part) => part.match).map((part) => part.text)).toEqual(["patience"]);
  });

  it("returns excerpts as text, so nothing a post says can become markup", async () => {
    const [post] = (await search({ q: "recipes" })).items;
    const text = post?.excerpt?.map((part) => part.text).join("") ?? "";
    // The body's entities are read as the characters they stand for: the excerpt is what a reader sees, as text,
    // which the pages print escaped (pages.test.ts, server-pages.spec.ts).
    expect(text).toContain("<img src=x onerror=alert(1)>");
    expect(text).toContain("recipes & tagliatelle");
    expect(text).not.toMatch(/&lt;|&amp;/);
    expect(post?.excerpt?.find((part) => part.match)?.text).toBe("recipes");
    // A search for a marker or for markup finds nothing rather than breaking the excerpt.
    expect((await search({ q: "\x01 <b>" })).items).toEqual([]);
  });

  it("pages through results with a cursor, in rank order, without repeats or gaps", async () => {
    const all = await titles("bloc", { limit: "100" });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: Found[]; nextCursor: string | null } = await search({
        q: "bloc",
        limit: "1",
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.items.map((post) => post.title));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all);
    expect(seen).toHaveLength(3);
    const forged = Buffer.from(JSON.stringify([true, "x", "y"])).toString("base64url");
    expect((await app.inject({ method: "GET", url: `/api/posts?q=bloc&cursor=${forged}` })).statusCode).toBe(400);
  });

  it("answers an empty list for stop words, empty or odd input (a prefix needs three letters)", async () => {
    for (const q of ["the", "", '"', "-", "!!!", "a & b | c", "'", "(", "'\\"]) expect(await titles(q), q).toEqual([]);
  });

  it("follows a post's edits, and its category's and author's renames", async () => {
    const id = ids.Sourdough as string;
    await app.inject({
      method: "PUT",
      url: `/api/posts/${id}`,
      headers: bearer(ada),
      payload: { title: "Sourdough", description: "<p>Rye and spelt.</p>", category: "Cooking" },
    });
    expect(await titles("patience")).toEqual([]);
    expect(await titles("spelt")).toEqual(["Sourdough"]);
    const categories = (await app.inject({ method: "GET", url: "/api/category" })).json().items as Found[];
    const cooking = categories.find((category) => category.title === "Cooking") as Found;
    await app.inject({
      method: "PUT",
      url: `/api/category/${cooking.id}`,
      headers: bearer(admin),
      payload: { title: "Baking" },
    });
    expect(await titles("baking")).toEqual(expect.arrayContaining(["Sourdough"]));
    await app.inject({
      method: "PUT",
      url: "/api/users",
      headers: bearer(ada),
      payload: { firstName: "Augusta", lastName: "King", email: ada.email, bio: "Mathematician" },
    });
    expect(await titles("augusta")).toEqual(expect.arrayContaining(["Sourdough", "Notes on ledgers"]));
    expect(await titles("lovelace")).toEqual([]);
  });

  it("counts searches the cache cannot answer against a limit per address", async () => {
    const limited = await buildTestApp(await target.open(), { rateLimits: { search: { max: 2, timeWindow: 60_000 } } });
    try {
      const get = (q: string) => limited.inject({ method: "GET", url: `/api/posts?q=${q}` });
      expect((await get("one")).statusCode).toBe(200);
      expect((await get("two")).statusCode).toBe(200);
      // The same search again comes from the cache and costs nothing; a new one is refused.
      expect((await get("one")).statusCode).toBe(200);
      const refused = await get("three");
      expect(refused.statusCode).toBe(429);
      expect(refused.headers["retry-after"]).toBeDefined();
    } finally {
      await limited.close();
    }
  });
});
