import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { comments, importedItems, posts } from "../../../src/server/db/schema.ts";
import { openArchive } from "../../../src/server/services/importing/archive-file.ts";
import { shortcodesAsHtml } from "../../../src/server/services/importing/formats/shortcodes.ts";
import { openWxr } from "../../../src/server/services/importing/formats/wxr.ts";
import { type ImportedPost, ITEM_LIMITS } from "../../../src/server/services/importing/items.ts";
import { POST_DESCRIPTION_MAX } from "../../../src/shared/constants.ts";
import { buildTestApp } from "../../support/app.ts";
import { importArchive, uploadArchive, wxr, zipOf } from "../../support/archives.ts";
import { createCategory } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { signUp } from "../../support/users.ts";

const THEME_UNIT_TEST = path.resolve(import.meta.dirname, "../../fixtures/public/wptt/themeunittestdata.wordpress.xml");
/** Archives of megabytes, read twice and written, on two shared cores. */
const SLOW = 240_000;
type State = {
  id: string;
  status: string;
  total: number;
  done: number;
  error: string | null;
  errors: { item: string; reason: string }[];
  report: { reason: string; count: number }[];
};

/** Text that compresses about as prose does (a zip of it is no bomb), `length` characters of it. */
const prose = (length: number) => {
  let text = "";
  let seed = 7;
  while (text.length < length) {
    seed = (seed * 48271) % 2147483647;
    text += `${seed.toString(36)} `;
  }
  return text.slice(0, length);
};

/** Each `<item>` of a WXR file: its type, status, id, title and password, read with plain string search. */
function wxrItemsOf(xml: string) {
  const field = (item: string, name: string) =>
    new RegExp(`<${name}>(?:<!\\[CDATA\\[)?([^<\\]]*)`).exec(item)?.[1]?.trim() ?? "";
  return [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map(([, item = ""]) => ({
    type: field(item, "wp:post_type"),
    status: field(item, "wp:status"),
    id: field(item, "wp:post_id"),
    title: field(item, "title"),
    password: field(item, "wp:post_password"),
  }));
}

/** The item a reader yields for a file (no limits applied after it: what the reader itself kept). */
async function readerItems(file: string) {
  const archive = await openArchive(file);
  try {
    const reader = openWxr(archive);
    await reader.scan();
    const items: ImportedPost[] = [];
    for await (const item of reader.items()) if (item.kind === "post") items.push(item);
    return items;
  } finally {
    archive.close();
  }
}

describe("WordPress shortcodes", () => {
  const attachments = {
    url: (id: string) => ({ "7": "https://old.example/a.jpg", "8": "https://old.example/b.jpg" })[id],
    of: (postId: string) => (postId === "1" ? ["https://old.example/c.jpg"] : []),
  };
  it("makes captions figures, galleries images, media links, drops the rest with a note and leaves prose alone", () => {
    const { html, notes } = shortcodesAsHtml(
      [
        '[caption id="attachment_1" width="600"]<a href="https://old.example/x.jpg"><img src="https://old.example/x.jpg" /></a> A bell[/caption]',
        '[caption caption="Dune"]<img src="https://old.example/d.jpg">[/caption]',
        '[gallery ids="7,8"] [gallery columns="2"]',
        "[embed]https://www.youtube.com/watch?v=1[/embed]",
        '[audio mp3="https://old.example/a.mp3"][/audio] [video src="https://old.example/v.mp4"]',
        '<p>Children beach their coracles [simple boat] [sic].</p>[contact-form-7 id="3"][box]kept text[/box][playlist]',
        "https://twitter.com/someone/status/1",
      ].join("\n"),
      "1",
      attachments,
    );
    expect(html).toContain(
      '<figure><a href="https://old.example/x.jpg"><img src="https://old.example/x.jpg" /></a><figcaption>A bell</figcaption></figure>',
    );
    expect(html).toContain('<figure><img src="https://old.example/d.jpg"><figcaption>Dune</figcaption></figure>');
    expect(html).toContain('<img src="https://old.example/a.jpg"><img src="https://old.example/b.jpg">');
    expect(html).toContain('<img src="https://old.example/c.jpg">');
    expect(html).toContain('<a href="https://www.youtube.com/watch?v=1">');
    expect(html).toContain('<a href="https://old.example/a.mp3">');
    expect(html).toContain('<a href="https://old.example/v.mp4">');
    expect(html).toContain("coracles [simple boat] [sic].");
    expect(html).toContain("kept text");
    expect(html).toContain('<a href="https://twitter.com/someone/status/1">');
    expect(html).not.toMatch(/\[(caption|gallery|embed|audio|video|contact-form-7|box|\/box|playlist)/);
    expect(notes).toEqual(["shortcodes left out: [contact-form-7], [box], [playlist]"]);
  });

  it("reads hostile brackets in one pass", () => {
    for (const hostile of ["[a".repeat(50_000), "[a ]".repeat(25_000), "[/a]".repeat(25_000), '[a "'.repeat(25_000)]) {
      const started = performance.now();
      shortcodesAsHtml(hostile, "1", attachments);
      // Read twice over for each bracket, these took minutes; once, milliseconds (the bound is for a busy machine).
      expect(performance.now() - started).toBeLessThan(5000);
    }
  });
});

describe.each(databaseTargets)("Importing real and hostile archives on $name", (target) => {
  let app: App;
  let scratch: string;
  beforeAll(async () => {
    app = await buildTestApp(await target.open());
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "imports-formats-"));
    const admin = await signUp(app);
    await createCategory(app, admin, `Seed ${Date.now()}`);
  }, SLOW);
  afterAll(async () => {
    await app.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  async function importFile(session: { token: string }, format: string, file: { data: Buffer; filename: string }) {
    return importArchive<State>(app, session, { format }, file);
  }
  const postsOf = (userId: string) => app.db.select().from(posts).where(eq(posts.userId, userId));
  const sum = (state: State) => state.report.reduce((total, line) => total + line.count, 0);

  it(
    "brings every post of WordPress's theme unit test export, the protected one as a draft, and counts every item",
    async () => {
      const writer = await signUp(app);
      const xml = fs.readFileSync(THEME_UNIT_TEST, "utf8");
      const items = wxrItemsOf(xml);
      const published = items.filter((item) => item.type === "post" && item.status === "publish");
      const written = items.filter(
        (item) => item.type === "post" && ["publish", "future", "draft"].includes(item.status),
      );
      // The file's own count (WordPress says 56 published posts): read, not assumed.
      expect(published).toHaveLength(56);
      expect(items).toHaveLength(186);

      const state = await importFile(writer, "wxr", { data: Buffer.from(xml), filename: "theme-unit-test.xml" });
      expect(state.status).toBe("done");
      expect(state.done).toBe(written.length);
      // Every item of the file is counted once, under what became of it.
      expect(sum(state)).toBe(items.length);

      // Each post by its site and wp:post_id: the two that share a guid with another both arrive.
      const rows = await postsOf(writer.id);
      expect(rows).toHaveLength(written.length);
      const sources = await app.db
        .select({ source: importedItems.source, postId: importedItems.postId })
        .from(importedItems)
        .where(eq(importedItems.userId, writer.id));
      const bySource = new Map(sources.map((row) => [row.source, row.postId]));
      for (const post of published)
        expect(bySource.get(`wxr:https://wpthemetestdata.wordpress.com#${post.id}`), post.title).toBeTruthy();
      const titles = rows.map((row) => row.title);
      expect(titles).toContain("Post Format: Image");
      expect(titles).toContain("Post Format: Video (YouTube)");

      const locked = published.filter((item) => item.password);
      expect(locked).toHaveLength(1);
      const lockedRow = rows.find((row) => row.title.startsWith("Template: Password Protected"));
      expect(lockedRow?.status).toBe("draft");
      expect(lockedRow?.publishedAt).toBeNull();
      const why = "made a draft: it is password-protected on the old site: it arrives as a draft, not public";
      expect(state.report).toContainEqual({ reason: why, count: 1 });
      expect(state.errors).toContainEqual({ item: lockedRow?.title, reason: why });
      // Its old address does not lead to it.
      expect(
        (await app.inject({ method: "GET", url: "/2012/01/04/template-password-protected/" })).statusCode,
      ).not.toBe(301);

      // The post with no content at all arrives too, as a draft, and says why.
      expect(rows.find((row) => row.title === "Edge Case: No Content")?.status).toBe("draft");
      expect(state.report).toContainEqual({ reason: "made a draft: it has no text", count: 1 });
      // What is not a post is counted by what it is.
      expect(state.report).toContainEqual({
        reason: "a page (only posts are imported)",
        count: items.filter((item) => item.type === "page").length,
      });

      // No shortcode nor block comment shows (a code block that quotes one, escaped, is the post's own text).
      for (const row of rows)
        expect(row.description, row.title).not.toMatch(/\[(\/?caption|gallery|embed|audio|video)\b|<!--/);
      const caption = rows.find((row) => row.title === "Post Format: Image (Caption)");
      expect(caption?.description).toMatch(
        /<figure><a [^>]*><img [^>]*\/><\/a><figcaption>Bell on wharf in San Francisco<\/figcaption><\/figure>/,
      );
      const gallery = rows.find((row) => row.title === "Post Format: Gallery (Tiled)");
      // Its ids="…" name six images, five of them in the file.
      const attached = new Set(items.filter((item) => item.type === "attachment").map((item) => item.id));
      const named = ["755", "757", "758", "760", "766", "763"].filter((id) => attached.has(id));
      expect(xml).toContain('[gallery type="rectangular" columns="4" ids="755,757,758,760,766,763"');
      expect(gallery?.description.match(/<img /g)?.length).toBe(named.length);
      const audio = rows.find((row) => row.title === "Post Format: Audio");
      expect(audio?.description).toContain(
        'href="https://wpthemetestdata.files.wordpress.com/2008/06/originaldixielandjazzbandwithalbernard-stlouisblues.mp3"',
      );
      const prose = rows.find((row) => row.title === "Post Format: Standard");
      expect(prose?.description).toContain("coracles [simple boat]");

      // The same file again: nothing twice, every item counted again.
      const again = await importFile(writer, "wxr", { data: Buffer.from(xml), filename: "theme-unit-test.xml" });
      expect(sum(again)).toBe(items.length);
      expect(again.report).toContainEqual({ reason: "already imported", count: written.length });
      expect(await postsOf(writer.id)).toHaveLength(written.length);
    },
    SLOW,
  );

  it(
    "cuts a 5 MB body to the editor's limit before cleaning it, as a draft, without holding the event loop",
    async () => {
      const writer = await signUp(app);
      const body = `<p>${prose(5 * 1024 ** 2).replaceAll(" ", "</p><p><b><i>")}</p>`;
      const archive = await zipOf({
        "export.xml": wxr([
          {
            id: 1,
            title: "x".repeat(50_000),
            body,
            comments: [
              { id: 1, author: "y".repeat(100_000), date: "2019-05-02 08:30:00", content: "z ".repeat(500_000) },
            ],
          },
          { id: 2, title: "Short", body: "<p>Fine.</p>" },
        ]),
      });
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      const state = await importFile(writer, "wxr", { data: archive, filename: "long.zip" });
      delay.disable();
      expect(state.status).toBe("done");
      // Cleaning the whole body on the event loop held it for 11 s. Generous: on two cores shared by a dozen busy
      // processes a timer waits a few hundred milliseconds for its turn whatever this process does.
      expect(delay.max / 1e6).toBeLessThan(1000);
      const rows = await postsOf(writer.id);
      const long = rows.find((row) => row.title.startsWith("x"));
      expect(long?.title).toHaveLength(200);
      expect(long?.status).toBe("draft");
      expect(long?.description.length).toBeGreaterThan(POST_DESCRIPTION_MAX / 2);
      expect(long?.description.length).toBeLessThan(POST_DESCRIPTION_MAX * 3);
      const [comment] = await app.db
        .select()
        .from(comments)
        .where(eq(comments.postId, long?.id ?? ""));
      expect(comment?.description.length).toBeLessThanOrEqual(5000);
      expect(comment?.importedAuthor?.length).toBeLessThanOrEqual(100);
      expect(state.report).toContainEqual({
        reason: "made a draft: its body is longer than the editor's 100,000 characters: cut there",
        count: 1,
      });
      expect(state.report).toContainEqual({ reason: "brought as it was", count: 1 });
    },
    SLOW,
  );

  it(
    "keeps no more of one WXR text node than its cap, however it is written",
    async () => {
      const huge = prose(ITEM_LIMITS.text * 3);
      const file = path.join(scratch, "nodes.xml");
      // A title in plain text, a body in many CDATA sections, a link in one: each three times the cap.
      const sections = Array.from(
        { length: 30 },
        (_, index) => `<![CDATA[${huge.slice(index * 100_000, (index + 1) * 100_000)}]]>`,
      );
      fs.writeFileSync(
        file,
        wxr([{ id: 1, title: "T", body: "B" }])
          .replace("<title><![CDATA[T]]></title>", `<title>${huge}</title>`)
          .replace(
            "<content:encoded><![CDATA[B]]></content:encoded>",
            `<content:encoded>${sections.join("")}</content:encoded>`,
          )
          .replace(/<link>[^<]*<\/link>/, `<link><![CDATA[https://old.example/${huge}]]></link>`),
      );
      const [item] = await readerItems(file);
      expect(item?.title.length).toBe(ITEM_LIMITS.text + 1);
      // Cut, then made into paragraphs as WordPress shows it.
      expect(item?.html.length).toBeLessThanOrEqual(POST_DESCRIPTION_MAX + 20);
      expect(item?.draftReason).toMatch(/longer than the editor's/);
      expect(item?.oldPaths).toEqual([]);

      const writer = await signUp(app);
      const state = await importFile(writer, "wxr", { data: fs.readFileSync(file), filename: "nodes.xml" });
      expect(state.status).toBe("done");
      const [row] = await postsOf(writer.id);
      expect(row?.title.length).toBeLessThanOrEqual(200);
      expect(row?.status).toBe("draft");
    },
    SLOW,
  );

  it(
    "caps one Ghost row: a long text is cut, a row larger than any post refuses the archive",
    async () => {
      const writer = await signUp(app);
      const ghost = (post: Record<string, unknown>) =>
        Buffer.from(
          JSON.stringify({
            db: [{ data: { posts: [post, { id: "2", title: "Short", html: "<p>Fine.</p>", status: "published" }] } }],
          }),
        );
      const long = await importFile(writer, "ghost", {
        data: ghost({ id: "1", title: "Long", html: `<p>${prose(ITEM_LIMITS.text * 2)}</p>`, status: "published" }),
        filename: "long.json",
      });
      expect(long.status).toBe("done");
      const rows = await postsOf(writer.id);
      expect(rows.find((row) => row.title === "Long")?.status).toBe("draft");
      expect(rows.find((row) => row.title === "Short")?.status).toBe("published");

      const text = prose(ITEM_LIMITS.text);
      const wide = await uploadArchive(
        app,
        writer,
        { format: "ghost" },
        {
          data: ghost({ id: "3", a: text, b: text, c: text, d: text, e: text, status: "published" }),
          filename: "wide.json",
        },
      );
      expect(wide.statusCode).toBe(422);
      expect(wide.json().message).toMatch(/A row of the export's posts is larger than any post/);
      const many = Object.fromEntries(Array.from({ length: 120_000 }, (_, index) => [`k${index}`, 1]));
      const deep = await uploadArchive(
        app,
        writer,
        { format: "ghost" },
        { data: ghost({ id: "4", ...many }), filename: "many.json" },
      );
      expect(deep.statusCode).toBe(422);
      expect(await postsOf(writer.id)).toHaveLength(2);
    },
    SLOW,
  );

  it(
    "reads hostile Markdown on the import's thread: what marked cannot read is that file's error, not the import's",
    async () => {
      const writer = await signUp(app);
      const archive = await zipOf({
        "site/_posts/2019-05-01-quotes.md": `---\ntitle: Quotes\n---\n${"> ".repeat(20_000)}x`,
        "site/_posts/2019-05-02-stars.md": `---\ntitle: Stars\n---\n${"*a".repeat(5000)}`,
        "site/_posts/2019-05-03-fine.md": "---\ntitle: Fine\n---\nJust *text*.",
      });
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      const state = await importFile(writer, "markdown", { data: archive, filename: "site.zip" });
      delay.disable();
      expect(state.status).toBe("done");
      expect(delay.max / 1e6).toBeLessThan(1000);
      expect(state.errors).toContainEqual({
        item: "Quotes",
        reason: expect.stringMatching(/^its Markdown could not be read/),
      });
      const titles = (await postsOf(writer.id)).map((row) => row.title).sort();
      expect(titles).toEqual(["Fine", "Stars"]);
      expect(sum(state)).toBe(3);
    },
    SLOW,
  );

  it(
    "lets no shortcode carry script or a foreign scheme into a body",
    async () => {
      const writer = await signUp(app);
      const body = [
        '[caption caption="<img src=x onerror=alert(1)>Cap"]<img src="https://old.example/a.png" onload="alert(2)">[/caption]',
        "[embed]javascript:alert(3)[/embed]",
        '[audio src="javascript:alert(4)"] [video mp4="data:text/html,<script>alert(5)</script>"]',
        '[gallery ids="9"]',
        'https://old.example/" onmouseover="alert(6)',
      ].join("\n\n");
      const state = await importFile(writer, "wxr", {
        data: Buffer.from(wxr([{ id: 1, title: "Tricks", body }], [{ id: 9, url: 'javascript:alert(7)//"><script>' }])),
        filename: "tricks.xml",
      });
      expect(state.status).toBe("done");
      const [row] = await postsOf(writer.id);
      expect(row?.description).toContain(
        '<figure><img src="https://old.example/a.png" /><figcaption>Cap</figcaption></figure>',
      );
      // No tag carries a handler or a foreign scheme (an address written as text stays text, escaped).
      expect(row?.description).not.toMatch(/<[^>]*(alert|javascript:|data:|onerror|onload|onmouseover)|<script/i);
      expect(row?.description).toContain('<p>https://old.example/" onmouseover="alert(6)</p>');
    },
    SLOW,
  );
});
