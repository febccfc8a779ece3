import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { eq, sql } from "drizzle-orm";
import { JSDOM } from "jsdom";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { posts } from "../../../src/server/db/schema.ts";
import { buildTestApp } from "../../support/app.ts";
import { commentOn, createCategory, createPost, likePost, submitPost } from "../../support/content.ts";
import { pgliteTarget } from "../../support/databases.ts";
import { png } from "../../support/images.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

/** Built by `npm run build` (npm test builds first): the client and its server renderer beside it. */
const CLIENT_DIR = path.resolve(import.meta.dirname, "../../../dist/client");
type Session = Awaited<ReturnType<typeof signUp>>;

const fileSize = (name: string) => fs.statSync(path.join(CLIENT_DIR, "assets", name)).size;
const html = (body: string) => new JSDOM(body).window.document;
/** A real XML parser: malformed XML fails the test. */
function xml(body: string) {
  const document = new JSDOM(body, { contentType: "application/xml" }).window.document;
  expect(document.querySelector("parsererror")).toBeNull();
  return document;
}

describe("reader pages, feeds and discovery", () => {
  let app: App;
  let author: Session;
  let post: { id: string; title: string };
  let other: { id: string; title: string };
  beforeAll(async () => {
    app = await buildTestApp(await pgliteTarget.open(), { clientDir: CLIENT_DIR });
    const admin = await signUp(app);
    await makeAdmin(app, admin.id);
    author = await signUp(app, { firstName: "Grace", lastName: "Hopper" });
    await createCategory(app, admin, "Compilers & <Tools>");
    await createCategory(app, admin, "Rust");
    post = await createPost(app, author, "Compilers & <Tools>", {
      title: 'Nanoseconds "explained"',
      description: "<p>A nanosecond is <strong>30 cm</strong> of wire &amp; more.</p><p>Second paragraph.</p>",
    });
    other = await createPost(app, admin, "Rust", { title: "Borrowing, briefly", description: "<p>Ownership.</p>" });
  });
  afterAll(() => app.close());

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: "GET", url, headers });

  it("says a post's and a profile's HTML varies by Accept, since the fediverse gets JSON at those addresses", async () => {
    for (const encoding of ["br", ""]) {
      const page = await get(`/posts/${post.id}`, { accept: "text/html", "accept-encoding": encoding });
      expect(page.headers.vary).toBe("accept, accept-encoding");
      const again = await get(`/posts/${post.id}`, { "if-none-match": String(page.headers.etag) });
      expect([again.statusCode, again.headers.vary]).toEqual([304, "accept, accept-encoding"]);
    }
    const profile = await get(`/profile/${author.id}`, { accept: "text/html" });
    expect(String(profile.headers.vary)).toMatch(/\baccept\b/);
  });

  it("renders a post's text, head and data in the first response, whatever the Accept header", async () => {
    const response = await get(`/posts/${post.id}`, { accept: "*/*" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/html");
    const page = html(response.body);
    expect(page.title).toBe('Nanoseconds "explained" | Penchain');
    expect(page.querySelector("#root h1")?.textContent).toBe('Nanoseconds "explained"');
    expect(page.querySelector("#root article")?.textContent).toContain("A nanosecond is 30 cm of wire & more.");
    expect(page.querySelector("#root")?.hasAttribute("data-hydrate")).toBe(true);
    const meta = (selector: string) => page.querySelector(selector)?.getAttribute("content");
    expect(meta('meta[name="description"]')).toBe("A nanosecond is 30 cm of wire & more. Second paragraph.");
    expect(meta('meta[property="og:type"]')).toBe("article");
    expect(meta('meta[property="og:title"]')).toBe('Nanoseconds "explained"');
    expect(meta('meta[property="article:author"]')).toBe("Grace Hopper");
    expect(meta('meta[name="twitter:card"]')).toBe("summary");
    expect(page.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(
      `http://penchain.test/posts/${post.id}`,
    );
    const feeds = [...page.querySelectorAll('link[rel="alternate"]')].map((link) => link.getAttribute("href"));
    expect(feeds).toContain("http://penchain.test/rss.xml?category=Compilers%20%26%20%3CTools%3E");
    const jsonLd = JSON.parse(page.querySelector('script[type="application/ld+json"]')?.textContent ?? "{}");
    expect(jsonLd).toMatchObject({ "@type": "BlogPosting", headline: 'Nanoseconds "explained"' });
    expect(jsonLd.author.name).toBe("Grace Hopper");
    // The data the client hydrates from: no second fetch, and nothing in it can close its script element.
    const state = page.getElementById("page-state");
    expect(state?.getAttribute("type")).toBe("application/json");
    expect(state?.textContent).not.toContain("</");
    const queries = JSON.parse(state?.textContent ?? "{}").queries as { queryKey: unknown[] }[];
    expect(queries.map((query) => query.queryKey)).toContainEqual(["posts", "detail", post.id]);
    // Only the page's own scripts: the CSP allows no inline script.
    const scripts = [...page.querySelectorAll("script")].filter(
      (script) => !script.getAttribute("type")?.startsWith("application/"),
    );
    expect(scripts.every((script) => script.getAttribute("src")?.startsWith("/assets/"))).toBe(true);
  });

  it("writes a post's text as it is, dollar signs included", async () => {
    const priced = await createPost(app, author, "Rust", {
      title: "Fees: $' and $& and $1",
      description: "<p>Costs $` nothing, $$ saved.</p>",
    });
    const page = html((await get(`/posts/${priced.id}`)).body);
    expect(page.title).toBe("Fees: $' and $& and $1 | Penchain");
    expect(page.querySelector("#root h1")?.textContent).toBe("Fees: $' and $& and $1");
    expect(page.querySelector("#root article")?.textContent).toContain("Costs $` nothing, $$ saved.");
    expect(page.querySelectorAll('script[type="module"]')).toHaveLength(1);
  });

  it("renders the list, filtered by category, and the home page", async () => {
    const list = html((await get("/posts")).body);
    expect(list.title).toBe("Latest Blogs | Penchain");
    const links = [...list.querySelectorAll("#root a")].map((link) => link.textContent);
    expect(links).toEqual(expect.arrayContaining(['Nanoseconds "explained"', "Borrowing, briefly"]));
    expect(list.querySelector("#root nav[aria-labelledby=categories-heading]")?.textContent).toContain("Rust");
    const rust = html((await get("/posts?category=Rust")).body);
    expect(rust.querySelector("#root")?.textContent).toContain("Borrowing, briefly");
    expect(rust.querySelector("#root")?.textContent).not.toContain("Nanoseconds");
    expect(rust.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(
      "http://penchain.test/posts?category=Rust",
    );
    const home = await get("/", { accept: "*/*" });
    expect(home.statusCode).toBe(200);
    expect(html(home.body).querySelector("#root h1")?.textContent).toBe("Pen down your ideas by creating a blog");
  });

  it("answers 404 with a not-found page for an unknown or deleted post, kept out of search engines", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const response = await get(`/posts/${id}`);
      expect(response.statusCode).toBe(404);
      const page = html(response.body);
      expect(page.querySelector("#root h1")?.textContent).toBe("Page not found");
      expect(page.querySelector('meta[name="robots"]')?.getAttribute("content")).toBe("noindex");
      expect(page.querySelector("#root")?.hasAttribute("data-hydrate")).toBe(false);
    }
    const gone = await createPost(app, author, "Rust", { title: "Short-lived" });
    await app.inject({ method: "DELETE", url: `/api/posts/${gone.id}`, headers: bearer(author) });
    expect((await get(`/posts/${gone.id}`)).statusCode).toBe(404);
  });

  it("renders with React's production build, whatever NODE_ENV the server runs with", () => {
    const renderer = fs.readFileSync(path.resolve(CLIENT_DIR, "../server/entry-server.js"), "utf8");
    expect(renderer).not.toMatch(/from "react(-dom)?[/"]/);
    expect(renderer).not.toContain("react-dom-server.node.development");
    expect(renderer).toContain("react-dom-server.node.production");
  });

  it("keeps a rendered page until what it shows changes, and renders other addresses each time", async () => {
    const shown = await createPost(app, author, "Rust", { title: "Kept pages", description: "<p>Rendered once.</p>" });
    const url = `/posts/${shown.id}`;
    const likesOf = (body: string) => {
      const state = JSON.parse(html(body).getElementById("page-state")?.textContent ?? "{}");
      const detail = (state.queries as { queryKey: unknown[]; state: { data: { likesCount: number } } }[]).find(
        (query) => JSON.stringify(query.queryKey) === JSON.stringify(["posts", "detail", shown.id]),
      );
      return detail?.state.data.likesCount;
    };
    const first = await get(url, { "accept-encoding": "br" });
    const before = app.readCache.stats();
    const again = await get(url, { "accept-encoding": "br" });
    // Answered from memory: no read at all, the same bytes and ETag, and a 304 for a browser that has it.
    expect(app.readCache.stats()).toMatchObject({ derivedHits: before.derivedHits + 1, misses: before.misses });
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers.vary).toContain("accept-encoding");
    expect((await get(url, { "if-none-match": String(again.headers.etag) })).statusCode).toBe(304);
    expect(likesOf(zlib.brotliDecompressSync(again.rawPayload).toString())).toBe(0);

    // A like does not render the post's page and the list again: they keep their counts until they expire (decision
    // 016), while the API's answer has it at once. What the post's text changes is a new page at once.
    await get("/posts");
    const reader = await signUp(app);
    await likePost(app, reader, shown.id);
    const derivedHits = app.readCache.stats().derivedHits;
    expect(likesOf((await get(url)).body)).toBe(0);
    expect((await get("/posts")).statusCode).toBe(200);
    expect(app.readCache.stats().derivedHits).toBe(derivedHits + 2);
    expect((await app.inject({ method: "GET", url: `/api/posts/${shown.id}?counted=1` })).json().likesCount).toBe(1);
    const edit = await app.inject({
      method: "PUT",
      url: `/api/posts/${shown.id}`,
      payload: { title: "Kept pages, edited", description: "<p>Rendered again.</p>", category: "Rust" },
      headers: bearer(author),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const edited = await get(url);
    expect(edited.body).toContain("Kept pages, edited");
    expect(likesOf(edited.body)).toBe(1);

    // The same parameters in another order are the same page.
    await get("/search?q=Kept&category=Rust");
    const searched = app.readCache.stats().derivedHits;
    expect((await get("/search?category=Rust&q=Kept")).statusCode).toBe(200);
    expect(app.readCache.stats().derivedHits).toBe(searched + 1);

    // Made-up parameters, a reset token and a missing post: answered, never kept.
    const kept = app.readCache.stats().derived;
    for (const address of [
      "/posts?utm_source=chat",
      "/password-reset-token?token=abc",
      `/posts/${crypto.randomUUID()}`,
    ]) {
      expect([200, 404]).toContain((await get(address)).statusCode);
    }
    expect(app.readCache.stats().derived).toBe(kept);
  });

  it("counts a page view like the API does, and not again when the reader's browser refreshes it", async () => {
    const reader = await signUp(app);
    await get(`/posts/${other.id}`, { "x-forwarded-for": "203.0.113.9" });
    await app.views.flush();
    // Read from the table: a view changes no cached answer at once.
    const views = async () =>
      (await app.db.select({ n: posts.numViews }).from(posts).where(eq(posts.id, other.id)))[0]?.n;
    expect(await views()).toBe(1);
    await app.inject({ method: "GET", url: `/api/posts/${other.id}?counted=1`, headers: bearer(reader) });
    await app.views.flush();
    expect(await views()).toBe(1);
  });

  it("puts the styles in the head: Chakra UI's global ones on every page, a page's own in one element", async () => {
    const screen = html((await get("/update-password")).body);
    for (const page of [html((await get(`/posts/${post.id}`)).body), html((await get("/create-post")).body)]) {
      const global = page.querySelector("head > style#global-styles")?.textContent ?? "";
      // The cascade layers' order first, then the reset, and every token as a variable for both colour modes.
      expect(global.startsWith("@layer reset,base,tokens,recipes;")).toBe(true);
      expect(global).toContain("--chakra-colors-teal-700:");
      expect(global).toMatch(/\.dark[^{]*\{[^}]*--chakra-colors-bg:/);
      // The page's own styles: one element, marked as one Emotion has already moved, naming what it holds.
      const own = page.querySelectorAll("head > style[data-emotion]");
      expect(own).toHaveLength(1);
      expect(own[0]?.getAttribute("data-emotion")).toMatch(/^css( [\w-]+){10,}$/);
      expect(own[0]?.hasAttribute("data-s")).toBe(true);
      // Every class the page uses is styled there or is none of Emotion's.
      const classes = [...page.querySelectorAll("#root [class]")].flatMap((node) => [...node.classList]);
      const emotion = classes.filter((name) => name.startsWith("css-"));
      expect(emotion.length).toBeGreaterThan(10);
      for (const name of emotion) expect(own[0]?.textContent).toContain(`.${name}`);
      expect(page.querySelectorAll("body style")).toHaveLength(0);
    }
    // A screen the browser renders gets the same global styles from the same template.
    expect(screen.querySelector("head > style#global-styles")?.textContent).toContain("--chakra-colors-teal-700:");
  });

  it("keeps client screens out of search engines and serves them whatever the Accept header", async () => {
    const screen = await get("/update-password", { accept: "*/*" });
    expect(screen.statusCode).toBe(200);
    expect(screen.headers["x-robots-tag"]).toBe("noindex");
    expect((await get("/assets/missing.js")).statusCode).toBe(404);
    expect((await get("/api/nothing", { accept: "text/html" })).headers["content-type"]).toContain("json");
  });

  it("renders the login, register and Create Blog forms on the server, kept out of search engines", async () => {
    for (const [path, heading] of [
      ["/login", "Login to your account"],
      ["/register", "Register"],
      ["/password-reset-token", "Password Reset Form"],
      ["/create-post", "Create Post"],
    ] as const) {
      const response = await get(path, { accept: "*/*" });
      expect(response.statusCode).toBe(200);
      expect(response.headers["x-robots-tag"]).toBe("noindex");
      const page = html(response.body);
      expect(page.querySelector("#root h1, #root h2")?.textContent).toContain(heading);
      expect(page.querySelector('meta[name="robots"]')?.getAttribute("content")).toBe("noindex");
      expect(page.querySelector("#root")?.hasAttribute("data-hydrate")).toBe(true);
      // Create Blog is for signed-in users: the app starts at once, to send a visitor to log in.
      expect(page.querySelector("#root")?.hasAttribute("data-start-now")).toBe(path === "/create-post");
    }
    // Reader pages start the app only when the reader reaches for it.
    for (const path of ["/", "/posts"]) {
      expect(
        html((await get(path)).body)
          .querySelector("#root")
          ?.hasAttribute("data-start-now"),
      ).toBe(false);
    }
    // Create Blog's dropdown is filled on the server.
    const create = html((await get("/create-post")).body);
    expect([...create.querySelectorAll("#root option")].map((option) => option.textContent)).toContain(
      "Compilers & <Tools>",
    );
  });

  it("publishes RSS feeds for the site, a category and an author", async () => {
    const site = xml((await get("/rss.xml")).body);
    const items = [...site.querySelectorAll("item")];
    // Newest first; the two oldest posts of this file end the feed.
    expect(items.map((item) => item.querySelector("title")?.textContent).slice(-2)).toEqual([
      "Borrowing, briefly",
      'Nanoseconds "explained"',
    ]);
    const first = items.at(-1);
    expect(first?.querySelector("link")?.textContent).toBe(`http://penchain.test/posts/${post.id}`);
    expect(first?.querySelector("description")?.textContent).toContain("A nanosecond is 30 cm of wire & more.");
    expect(first?.getElementsByTagName("content:encoded")[0]?.textContent).toContain("<strong>30 cm</strong>");
    expect(first?.querySelector("category")?.textContent).toBe("Compilers & <Tools>");

    const category = xml((await get(`/rss.xml?category=${encodeURIComponent("Compilers & <Tools>")}`)).body);
    expect(category.querySelector("channel > title")?.textContent).toBe("Penchain: Compilers & <Tools>");
    expect([...category.querySelectorAll("item title")].map((title) => title.textContent)).toEqual([
      'Nanoseconds "explained"',
    ]);
    const byAuthor = xml((await get(`/rss.xml?author=${author.id}`)).body);
    expect(byAuthor.querySelector("channel > title")?.textContent).toBe("Penchain: Grace Hopper");
    expect((await get("/rss.xml?author=nobody")).statusCode).toBe(400);
  });

  it("lists every post with its last change in the sitemap, named by robots.txt", async () => {
    const sitemap = xml((await get("/sitemap.xml")).body);
    const urls = [...sitemap.querySelectorAll("url")].map((url) => ({
      loc: url.querySelector("loc")?.textContent,
      lastmod: url.querySelector("lastmod")?.textContent,
    }));
    expect(urls).toContainEqual({ loc: "http://penchain.test/", lastmod: undefined });
    const entry = urls.find((url) => url.loc === `http://penchain.test/posts/${post.id}`);
    expect(new Date(entry?.lastmod ?? "").getTime()).toBeGreaterThan(0);
    expect(urls).toHaveLength(2 + (await get("/api/posts?limit=100")).json().items.length);
    const robots = (await get("/robots.txt")).body;
    expect(robots).toContain("Sitemap: http://penchain.test/sitemap.xml");
  });

  it("compresses pages, JSON and assets for clients that accept it", async () => {
    const page = await get(`/posts/${post.id}`, { "accept-encoding": "br, gzip" });
    expect(page.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(page.rawPayload).toString()).toContain("Nanoseconds");
    const list = await get("/api/posts", { "accept-encoding": "gzip" });
    expect(list.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(zlib.gunzipSync(list.rawPayload).toString()).items.length).toBeGreaterThan(0);
    // The largest script the build made (the app), as a browser would ask for it.
    const assets = fs.readdirSync(path.join(CLIENT_DIR, "assets")).filter((name) => name.endsWith(".js"));
    const largest = assets.sort((a, b) => fileSize(b) - fileSize(a))[0];
    const script = `/assets/${largest}`;
    const asset = await get(script, { "accept-encoding": "br" });
    expect(asset.headers["content-encoding"]).toBe("br");
    expect(asset.headers["cache-control"]).toContain("immutable");
    // Only the headers a script needs: no validators (a hashed name is never revalidated), dates, ranges or
    // referrer policy (its page's governs its imports) on each of the app's scripts.
    expect(asset.headers["cache-control"]).toBe("max-age=31536000, immutable");
    expect(asset.headers.etag).toBeUndefined();
    expect(asset.headers["last-modified"]).toBeUndefined();
    expect(asset.headers["accept-ranges"]).toBeUndefined();
    expect(asset.headers["referrer-policy"]).toBeUndefined();
    expect(asset.headers["x-content-type-options"]).toBe("nosniff");
    expect(asset.headers["cross-origin-resource-policy"]).toBe("same-origin");
    expect(page.headers["referrer-policy"]).toBe("no-referrer");
    expect(asset.rawPayload.length).toBeLessThan(zlib.brotliDecompressSync(asset.rawPayload).length / 3);
    expect((await get(script)).headers["content-encoding"]).toBeUndefined();
    // A screen the browser renders: index.html, with the global styles in it, compressed by the build.
    const screen = await get("/update-password", { "accept-encoding": "br, gzip" });
    expect(screen.headers["content-encoding"]).toBe("br");
    expect(screen.headers["cache-control"]).toBe("no-cache");
    const shell = zlib.brotliDecompressSync(screen.rawPayload).toString();
    expect(shell).toBe(fs.readFileSync(path.join(CLIENT_DIR, "index.html"), "utf8"));
    expect(screen.rawPayload.length).toBeLessThan(shell.length / 4);
  });

  it("stores covers at 400, 800 and 1600 px and makes missing widths of older uploads on first request", async () => {
    const response = await submitPost(
      app,
      author,
      { title: "With a cover", description: "<p>Wide</p>", category: "Rust", isFeatured: "false" },
      { data: await png(2400, 1200), filename: "cover.png", type: "image/png" },
    );
    const image = response.json().image as string;
    for (const [url, width] of [
      [image, 1600],
      [image.replace(/\.webp$/, "-w800.webp"), 800],
      [image.replace(/\.webp$/, "-w400.webp"), 400],
    ] as const) {
      const file = await get(url);
      expect(file.statusCode).toBe(200);
      expect(await sharp(file.rawPayload).metadata()).toMatchObject({ format: "webp", width });
    }
    const page = html((await get("/posts?category=Rust")).body);
    const cover = page.querySelector(`#root img[src="${image.replace(/\.webp$/, "-w800.webp")}"]`);
    expect(cover?.getAttribute("srcset")).toContain(`${image} 1600w`);
    expect(cover?.getAttribute("width")).toBe("1600");
    expect(cover?.getAttribute("loading")).toBe("eager");

    // An upload from before widths existed: its smaller width is made once, then served as a file.
    const old = path.join(app.config.dataDir, "uploads", "0000000a-0000-4000-8000-000000000001.webp");
    await sharp(await png(1600, 900))
      .webp()
      .toFile(old);
    const made = await get("/uploads/0000000a-0000-4000-8000-000000000001-w400.webp");
    expect(made.statusCode).toBe(200);
    expect(await sharp(made.rawPayload).metadata()).toMatchObject({ width: 400 });
    expect((await get("/uploads/0000000a-0000-4000-8000-000000000001-w401.webp")).statusCode).toBe(404);
    expect((await get("/uploads/none-w400.webp")).statusCode).toBe(404);
  });

  it("turns the sitemap into an index of files once it outgrows one", async () => {
    const before = (await get("/api/posts?limit=100")).json().items.length as number;
    await app.db.execute(sql`
      insert into posts (title, description, category_id, user_id, created_at)
      select 'Filler ' || g, '<p>Filler</p>', (select id from categories limit 1), ${author.id}::uuid,
             now() - interval '1 year' + (g || ' seconds')::interval
      from generate_series(1, 49000) g`);
    app.readCache.invalidate();
    const index = xml((await get("/sitemap.xml")).body);
    const files = [...index.querySelectorAll("sitemapindex > sitemap > loc")].map((loc) => loc.textContent);
    expect(files).toEqual(["http://penchain.test/sitemap-1.xml", "http://penchain.test/sitemap-2.xml"]);
    const first = xml((await get("/sitemap-1.xml")).body).querySelectorAll("url");
    const second = xml((await get("/sitemap-2.xml")).body).querySelectorAll("url");
    expect(first.length).toBe(2 + 49_000);
    expect(second.length).toBe(before);
    expect((await get("/sitemap-3.xml")).statusCode).toBe(404);
  });
});

describe("an expired page", () => {
  const MAX_AGE_MS = 1000;
  let app: App;
  beforeAll(async () => {
    app = await buildTestApp(await pgliteTarget.open(), {
      clientDir: CLIENT_DIR,
      env: { READ_CACHE_MAX_AGE_MS: String(MAX_AGE_MS) },
    });
  });
  afterAll(() => app.close());
  const get = (url: string) => app.inject({ method: "GET", url });
  const likesOn = (body: string, id: string) => {
    const state = JSON.parse(html(body).getElementById("page-state")?.textContent ?? "{}");
    const detail = (state.queries as { queryKey: unknown[]; state: { data: { likesCount: number } } }[]).find(
      (query) => JSON.stringify(query.queryKey) === JSON.stringify(["posts", "detail", id]),
    );
    return detail?.state.data.likesCount;
  };

  it("is served at once while it is rendered again, and never after a write changed what it shows", async () => {
    const admin = await signUp(app);
    await makeAdmin(app, admin.id);
    await createCategory(app, admin, "Pages");
    const author = await signUp(app);
    const shown = await createPost(app, author, "Pages", { title: "Served while rendered" });
    const url = `/posts/${shown.id}`;
    expect(likesOn((await get(url)).body, shown.id)).toBe(0);
    await likePost(app, await signUp(app), shown.id);
    await new Promise((resolve) => setTimeout(resolve, MAX_AGE_MS + 100));
    // The first reader after it expired is not kept waiting for a render: the old page, and one render behind it.
    const stale = app.readCache.stats().staleHits;
    expect(likesOn((await get(url)).body, shown.id)).toBe(0);
    expect(app.readCache.stats().staleHits).toBe(stale + 1);
    await expect.poll(async () => likesOn((await get(url)).body, shown.id), { timeout: 2000 }).toBe(1);

    // A write to what the page shows drops it: the next reader gets the new one, expired or not.
    await new Promise((resolve) => setTimeout(resolve, MAX_AGE_MS + 100));
    const edited = await app.inject({
      method: "PUT",
      url: `/api/posts/${shown.id}`,
      headers: bearer(author),
      payload: { title: "Renamed at once", description: "<p>Body</p>", category: "Pages" },
    });
    expect(edited.statusCode).toBe(200);
    const staleBefore = app.readCache.stats().staleHits;
    expect((await get(url)).body).toContain("Renamed at once");
    expect(app.readCache.stats().staleHits).toBe(staleBefore);
  });

  it("shows a new comment once it expires (the API at once), and drops a removed one at once", async () => {
    const admin = await signUp(app);
    await makeAdmin(app, admin.id);
    await createCategory(app, admin, "Talk");
    const author = await signUp(app);
    const reader = await signUp(app);
    const shown = await createPost(app, author, "Talk", { title: "Talked about" });
    const url = `/posts/${shown.id}`;
    await get(url);
    const posted = await commentOn(app, reader, shown.id, "A new remark");
    expect((await get(`/api/posts/${shown.id}`)).body).toContain("A new remark");
    // The rendered page keeps what it was until it expires: a busy post is not rendered again for every comment.
    expect((await get(url)).body).not.toContain("A new remark");
    await new Promise((resolve) => setTimeout(resolve, MAX_AGE_MS + 100));
    await expect.poll(async () => (await get(url)).body, { timeout: 2000 }).toContain("A new remark");

    const removed = await app.inject({
      method: "DELETE",
      url: `/api/comments/${posted.id}`,
      headers: bearer(reader),
    });
    expect(removed.statusCode).toBe(200);
    expect((await get(url)).body).not.toContain("A new remark");
  });
});
