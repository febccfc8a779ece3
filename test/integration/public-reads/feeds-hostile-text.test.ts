import path from "node:path";
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { buildTestApp } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { makeAdmin, signUp } from "../../support/users.ts";

const CLIENT_DIR = path.resolve(import.meta.dirname, "../../../dist/client");

/** A strict XML parser: any malformed document fails the test. */
function xml(body: string) {
  const document = new JSDOM(body, { contentType: "application/xml" }).window.document;
  expect(document.querySelector("parsererror")).toBeNull();
  return document;
}

/** Titles that try to end CDATA, elements or the document, or carry what XML 1.0 cannot. */
const FORGED = "a]]>b]]></title><link>https://evil.example</link></item><item><title><![CDATA[x";
const HOSTILE_TITLES = [
  FORGED,
  "]]>]]>",
  "]]>]]>]]> <b>&amp; & < > \" ' ]]",
  "bell\u0007 vertical\u000b tab\u0001 escape\u001b",
  "line\u2028separator\u2029paragraph \uFFFE\uFFFF",
];

describe.each(databaseTargets)("feeds and reader pages with hostile text on $name", (target) => {
  let app: App;
  let author: Awaited<ReturnType<typeof signUp>>;
  let topic: string;
  beforeAll(async () => {
    app = await buildTestApp(await target.open(), { clientDir: CLIENT_DIR });
    author = await signUp(app);
    await makeAdmin(app, author.id);
    topic = (await createCategory(app, author, "Feeds ]]> & <Tests>")).title;
    for (const title of HOSTILE_TITLES) {
      await createPost(app, author, topic, {
        title,
        description: `<p>Body ]]&gt; with ]]&gt;]]&gt; and &lt;/description&gt; and ${title.length} more</p>`,
      });
    }
  });
  afterAll(() => app.close());

  const get = (url: string) => app.inject({ method: "GET", url });

  it("keeps every title and body inside its own item, in the site's, the category's and the author's feed", async () => {
    for (const url of ["/rss.xml", `/rss.xml?category=${encodeURIComponent(topic)}`, `/rss.xml?author=${author.id}`]) {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      const feed = xml(response.body);
      const items = [...feed.querySelectorAll("item")];
      expect(items).toHaveLength(HOSTILE_TITLES.length);
      expect(response.body).not.toContain("<link>https://evil.example</link>");
      // RSS's own `<link>` (its text) and the provenance page's `<atom:link href>`: both on this site.
      const links = [...feed.querySelectorAll("item > link")].map((link) =>
        link.namespaceURI ? link.getAttribute("href") : link.textContent,
      );
      expect(links.every((link) => link?.startsWith("http://penchain.test/posts/"))).toBe(true);
      const titles = items.map((item) => item.querySelector("title")?.textContent);
      // Each title arrives whole, less only the characters XML cannot carry.
      expect(titles).toContain(FORGED);
      expect(titles).toContain("]]>]]>");
      expect(titles).toContain("bell vertical tab escape");
      expect(titles).toContain("line\u2028separator\u2029paragraph ");
      const descriptions = items.map((item) => item.querySelector("description")?.textContent ?? "");
      expect(descriptions.every((text) => text.includes("Body ]]> with ]]>]]> and </description>"))).toBe(true);
      expect(feed.querySelector("channel > category, channel > item > category")?.textContent).toBe(topic);
    }
  });

  it("builds the self link from PUBLIC_URL and the validated query, never from the request", async () => {
    const first = await get(`/rss.xml?category=${encodeURIComponent(topic.toUpperCase())}&utm=<x>&evil=1`);
    const self = xml(first.body).getElementsByTagName("atom:link")[0]?.getAttribute("href");
    expect(self).toBe(`http://penchain.test/rss.xml?category=${encodeURIComponent(topic).replace(/%20/g, "+")}`);
    // The same feed asked plainly is the same cached answer, with no trace of the first request.
    const second = await get(`/rss.xml?category=${encodeURIComponent(topic)}`);
    expect(second.body).toBe(first.body);
    expect(second.body).not.toContain("utm");
    expect(second.body).not.toContain("evil=1");
  });

  it("answers 404 for an unknown category's feed and page, without its text in a title", async () => {
    const text = "<script>alert(1)</script> Buy cheap tokens";
    expect((await get(`/rss.xml?category=${encodeURIComponent(text)}`)).statusCode).toBe(404);
    const page = await get(`/posts?category=${encodeURIComponent(text)}`);
    expect(page.statusCode).toBe(404);
    const document = new JSDOM(page.body).window.document;
    expect(document.title).toBe("Category not found | Penchain");
    expect(document.querySelector('meta[name="robots"]')?.getAttribute("content")).toBe("noindex");
    expect(page.body).not.toContain("Buy cheap tokens");
    const known = await get(`/posts?category=${encodeURIComponent(topic)}`);
    expect(known.statusCode).toBe(200);
    // Made-up categories keep nothing in the cache, so they cannot crowd real answers out.
    const entries = app.readCache.stats().entries;
    for (let index = 0; index < 50; index++) {
      expect((await get(`/rss.xml?category=made-up-${index}`)).statusCode).toBe(404);
      expect((await get(`/posts?category=made-up-${index}`)).statusCode).toBe(404);
    }
    expect(app.readCache.stats().entries).toBe(entries);
  });

  it("keeps reader pages and the sitemap well-formed with the same titles", async () => {
    const sitemap = xml((await get("/sitemap.xml")).body);
    expect(sitemap.querySelectorAll("url").length).toBeGreaterThanOrEqual(HOSTILE_TITLES.length + 2);
    const list = await get(`/posts?category=${encodeURIComponent(topic)}`);
    const document = new JSDOM(list.body).window.document;
    expect(document.querySelectorAll("a[href='https://evil.example']")).toHaveLength(0);
    expect(document.body.textContent).toContain(FORGED);
  });
});
