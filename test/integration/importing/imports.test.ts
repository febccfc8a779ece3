import fs from "node:fs";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import type { App } from "../../../src/server/app.ts";
import {
  categories,
  comments,
  emailSubscriptions,
  imports,
  mailOutbox,
  posts,
  users,
} from "../../../src/server/db/schema.ts";
import { runNextImport } from "../../../src/server/services/importing/import-job.ts";
import { startImport } from "../../../src/server/services/importing/import-requests.ts";
import { writeArchive } from "../../../src/server/services/leaving/archive.ts";
import { buildTestApp } from "../../support/app.ts";
import { folderFiles, importArchive, uploadArchive, type WxrPost, wxr, zipOf } from "../../support/archives.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { png } from "../../support/images.ts";
import { type SmtpServer, startSmtpServer } from "../../support/smtp.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../../fixtures/public");
type State = { id: string; status: string; total: number; done: number; errors: { item: string; reason: string }[] };

/** One file of a zip, read with yauzl. */
function unzipOne(file: string, name: string): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      zip.on("entry", (entry: yauzl.Entry) => {
        if (entry.fileName !== name) return zip.readEntry();
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => resolve(Buffer.concat(chunks)));
        });
      });
      zip.on("end", () => reject(new Error(`${name} not in the zip`)));
      zip.readEntry();
    }),
  );
}

describe.each(databaseTargets)("Importing archives on $name", (target) => {
  let app: App;
  let smtp: SmtpServer;
  let admin: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await buildApp();
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
    await createCategory(app, admin, `Seed ${Date.now()}`);
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });
  async function buildApp() {
    return buildTestApp(await target.open(), { env: { SMTP_URL: smtp.url } });
  }

  /** Uploads, waits for the job, answers the import's last state. */
  async function importFile(
    session: { token: string },
    format: string,
    file: { data: Buffer | string; filename: string },
    fields: Record<string, string> = {},
  ) {
    return importArchive<State>(app, session, { format, ...fields }, file);
  }
  /** Past the new-account rules: verified, two days old. */
  const trust = (id: string) =>
    app.db
      .update(users)
      .set({ isAccountVerified: true, createdAt: new Date(Date.now() - 2 * 24 * 60 * 60_000) })
      .where(eq(users.id, id));
  const postsOf = (userId: string) =>
    app.db.select().from(posts).where(eq(posts.userId, userId)).orderBy(posts.createdAt, posts.title);

  it("brings a WordPress export with its images, dates, statuses, categories, comments and old addresses, once", async () => {
    const writer = await signUp(app);
    const category = `Travel ${Date.now()}`;
    // Categories are the site's: a writer's import files posts under those it has.
    await createCategory(app, admin, category.toUpperCase());
    const list: WxrPost[] = [
      {
        id: 1,
        title: "Spring &#8217;19 in <b>Lisbon</b>",
        body: 'First paragraph.\n\nSecond one with a photo <img src="https://old.example/wp-content/uploads/2019/05/tram.png" alt="tram">.',
        category,
        thumbnail: 10,
        date: "2019-05-01 10:00:00",
        comments: [
          { id: 5, author: "Ana Reader", date: "2019-05-02 08:30:00", content: "Lovely <b>trams</b>!" },
          { id: 6, author: "Spammer", date: "2019-05-02 09:00:00", content: "buy now", approved: "0" },
          { id: 7, author: "blog.example", date: "2019-05-02 09:00:00", content: "pingback", type: "pingback" },
        ],
      },
      { id: 2, title: "Half done", body: "<p>Not yet.</p>", status: "draft", category },
      { id: 3, title: "For later", body: "<p>Soon.</p>", status: "future", date: "2099-01-01 09:00:00" },
      { id: 4, title: "About me", body: "<p>A page, not a post.</p>", type: "page" },
    ];
    const archive = await zipOf({
      "export/old-blog.WordPress.2019-06-01.xml": wxr(list, [
        { id: 10, url: "https://old.example/wp-content/uploads/2019/05/cover.png" },
      ]),
      "export/wp-content/uploads/2019/05/cover.png": await png(120, 80),
      "export/wp-content/uploads/2019/05/tram.png": await png(40, 40),
    });
    const state = await importFile(writer, "wxr", { data: archive, filename: "old-blog.zip" });
    expect(state).toMatchObject({ status: "done", total: 3, done: 3, errors: [] });

    const rows = await postsOf(writer.id);
    expect(rows.map((row) => [row.title, row.status]).sort()).toEqual([
      ["For later", "scheduled"],
      ["Half done", "draft"],
      ["Spring ’19 in Lisbon", "published"],
    ]);
    const named = (title: string) => rows.find((row) => row.title.startsWith(title)) as (typeof rows)[number];
    const [spring, draft, later] = [named("Spring"), named("Half done"), named("For later")];
    expect(spring.publishedAt?.toISOString()).toBe("2019-05-01T10:00:00.000Z");
    expect(later.publishedAt?.toISOString()).toBe("2099-01-01T09:00:00.000Z");
    expect(spring.image).toMatch(/^\/uploads\/[0-9a-f-]{36}\.webp$/);
    expect(spring.description).toMatch(
      /^<p>First paragraph\.<\/p><p>Second one with a photo <img src="\/uploads\/[0-9a-f-]{36}\.webp" alt="tram" \/>\.<\/p>$/,
    );
    const [made] = await app.db.select().from(categories).where(eq(categories.id, spring.categoryId));
    expect(made?.title).toBe(category.toUpperCase());
    expect(draft.categoryId).toBe(spring.categoryId);
    const image = await app.inject({ method: "GET", url: spring.image as string });
    expect(image.headers["content-type"]).toBe("image/webp");

    const answer = await app.inject({ method: "GET", url: `/api/posts/${spring.id}/comments` });
    const listed = answer.json().items as {
      description: string;
      importedAuthor: string;
      createdAt: string;
    }[];
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      description: "Lovely trams!",
      importedAuthor: "Ana Reader",
      createdAt: "2019-05-02T08:30:00.000Z",
    });

    const moved = await app.inject({ method: "GET", url: "/2019/05/post-1/" });
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe(`/posts/${spring.id}`);
    expect((await app.inject({ method: "GET", url: "/2019/05/post-2/" })).statusCode).not.toBe(301);

    // The same file again: nothing twice.
    const again = await importFile(writer, "wxr", { data: archive, filename: "old-blog.zip" });
    expect(again).toMatchObject({ status: "done", total: 3, done: 3, errors: [] });
    expect(await postsOf(writer.id)).toHaveLength(3);
    expect(await app.db.$count(comments, eq(comments.postId, spring.id))).toBe(1);
  });

  it("reads WordPress, Ghost, Substack and Jekyll exports the project did not write", async () => {
    const writer = await signUp(app);
    const xml = fs.readFileSync(path.join(FIXTURES, "wordpress/wordpress.xml"));
    // Its posts: those published or drafted (not its pages, nor the spam it had thrown away).
    const wordpressPosts = xml
      .toString()
      .split("<item>")
      .filter((item) => item.includes("<wp:post_type><![CDATA[post]]>") && !item.includes("[CDATA[trash]]")).length;
    const wp = await importFile(writer, "wxr", { data: xml, filename: "wordpress.xml" });
    expect(wp.status).toBe("done");
    expect(wp.total).toBe(wordpressPosts);
    const hello = (await postsOf(writer.id)).find((row) => row.title === "Hello world!");
    expect(hello?.publishedAt?.toISOString()).toBe("2018-10-02T13:04:53.000Z");
    const helloComments = await app.db
      .select()
      .from(comments)
      .where(eq(comments.postId, hello?.id ?? ""));
    expect(helloComments.map((row) => row.importedAuthor)).toEqual(["A WordPress Commenter"]);
    expect((await app.inject({ method: "GET", url: "/wordpress/2018/10/02/hello-world/" })).headers.location).toBe(
      `/posts/${hello?.id}`,
    );

    const ghostWriter = await signUp(app);
    const ghost = await importFile(ghostWriter, "ghost", {
      data: fs.readFileSync(path.join(FIXTURES, "ghost/ghost.json")),
      filename: "ghost.json",
    });
    expect(ghost).toMatchObject({ status: "done", total: 3, done: 3 });
    // Made within the same instant or two: in no particular order.
    const ghostPosts = (await postsOf(ghostWriter.id)).sort((a, b) => a.title.localeCompare(b.title));
    expect(ghostPosts.map((row) => row.title)).toEqual(["Post 1", "Post 2", "Post 3 - Lexical"]);
    // Post 3 has no HTML, only its Lexical document: rendered.
    expect(ghostPosts[2]?.description).toContain('src="https://example.com/images/lexical-image.jpg"');
    expect((await app.inject({ method: "GET", url: "/post-2/" })).headers.location).toBe(`/posts/${ghostPosts[1]?.id}`);

    const substackWriter = await signUp(app, { firstName: "Sam" });
    // Only an account past the new-account rules brings its list (imports-subscribers.test.ts).
    await trust(substackWriter.id);
    const substackZip = await zipOf(folderFiles(path.join(FIXTURES, "substack")));
    const list = fs.readFileSync(path.join(FIXTURES, "substack/email_list.fixtures.csv"), "utf8");
    const rows = list
      .trim()
      .split("\n")
      .slice(1)
      .filter((line) => line.split(",")[2] !== "true");
    // Two have a non-ASCII local part, which the form refuses too: reported, not added.
    const listed = rows.filter((line) => /^[\x21-\x7e]+$/.test(line.split(",")[0] ?? "")).length;
    const substack = await importFile(substackWriter, "substack", { data: substackZip, filename: "substack.zip" });
    expect(substack).toMatchObject({ status: "done", total: 4 + rows.length, done: 4 + rows.length });
    expect(substack.errors.filter((error) => error.reason === "it is not an e-mail address")).toHaveLength(
      rows.length - listed,
    );
    const substackPosts = await postsOf(substackWriter.id);
    expect(substackPosts.map((row) => [row.title, row.status])).toEqual([
      ["Plain Text", "published"],
      ["Comment Buttons", "published"],
      ["Talk to Us", "published"],
      ["Plain Text", "draft"],
    ]);
    expect((await app.inject({ method: "GET", url: "/p/plain-text" })).headers.location).toBe(
      `/posts/${substackPosts[0]?.id}`,
    );
    const subscribers = await app.db
      .select()
      .from(emailSubscriptions)
      .where(eq(emailSubscriptions.authorId, substackWriter.id));
    expect(subscribers).toHaveLength(listed);
    expect(subscribers.every((row) => row.status === "pending" && row.source === "substack")).toBe(true);
    // The job drains the outbox a few at a time: every address gets exactly one mail, asking it to confirm.
    const moved = () => smtp.received.filter((mail) => mail.decoded.includes("Sam Hopper has moved from Substack"));
    await expect.poll(() => moved().length, { timeout: 15_000 }).toBe(listed);
    expect(new Set(moved().flatMap((mail) => mail.to)).size).toBe(listed);
    const one = moved().find((mail) => mail.to.includes("jill@example.com"));
    expect(one?.decoded).toMatch(/\/subscriptions\/confirm\/[A-Za-z0-9_-]{43}/);
    // Told once: importing the list again queues no mail.
    const queuedBefore = await app.db.$count(mailOutbox);
    await importFile(substackWriter, "substack", { data: substackZip, filename: "substack.zip" });
    expect(await app.db.$count(mailOutbox)).toBe(queuedBefore);

    const jekyllWriter = await signUp(app);
    const jekyll = await importFile(jekyllWriter, "markdown", {
      data: await zipOf(folderFiles(path.join(FIXTURES, "jekyll"), "site/")),
      filename: "site.zip",
    });
    const files = fs.readdirSync(path.join(FIXTURES, "jekyll/_posts")).length;
    expect(jekyll).toMatchObject({ status: "done", total: files });
    const jekyllPosts = await postsOf(jekyllWriter.id);
    // Images not brought and categories this site does not have are notes on a written post, not failures.
    const failed = jekyll.errors.filter((error) => !/^(image|Its category)/.test(error.reason));
    expect(jekyllPosts.length + failed.length).toBe(files);
    const basic = jekyllPosts.find((row) => row.title === "This is a Basic Post");
    expect(basic?.publishedAt?.toISOString()).toBe("2021-08-23T00:00:00.000Z");
    expect(basic?.description).toContain("<strong>consectetur</strong>");
    expect(jekyllPosts.find((row) => row.title === "This post has published:false set")?.status).toBe("draft");
    expect((await app.inject({ method: "GET", url: "/2021/08/23/basic-post/" })).headers.location).toBe(
      `/posts/${basic?.id}`,
    );
  });

  it("refuses hostile archives whole, with a clear message, and writes nothing", async () => {
    const writer = await signUp(app);
    const refused = async (format: string, file: { data: Buffer | string; filename: string }, message: RegExp) => {
      const response = await uploadArchive(app, writer, { format }, file);
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().message).toMatch(message);
    };
    const bomb = await zipOf({ "export.xml": Buffer.alloc(64 * 1024 ** 2) });
    expect(bomb.length).toBeLessThan(200_000);
    await refused("wxr", { data: bomb, filename: "bomb.zip" }, /zip bomb/);

    // yazl will not write a name that climbs out, so the test rewrites one it did write, byte for byte.
    const climbing = (await zipOf({ "xx/evil.md": "---\ntitle: Evil\n---\nhello" }))
      .toString("latin1")
      .replaceAll("xx/evil.md", "../evil.md");
    await refused("markdown", { data: Buffer.from(climbing, "latin1"), filename: "climb.zip" }, /leaves it/);

    // A file the zip's directory says unpacks to 600 MB (the directory is rewritten: no test writes 600 MB).
    const large = await zipOf({ "export.xml": wxr([{ id: 1, title: "Big", body: "<p>Big</p>" }]) });
    const directory = large.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    large.writeUInt32LE(600 * 1024 ** 2, directory + 24);
    await refused("wxr", { data: large, filename: "large.zip" }, /"export\.xml" is larger than 512 MB/);

    // A file longer than the directory says: yauzl's stream fails, and that must be the archive's refusal, not the
    // process's uncaught error.
    const short = await zipOf({
      "posts.csv": `post_id,post_date,is_published,title,subtitle,type\n1.a,2020-01-01,true,${"A".repeat(100_000)},,newsletter\n`,
    });
    short.writeUInt32LE(60, short.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 24);
    await refused("substack", { data: short, filename: "short.zip" }, /too many bytes/);
    const shortXml = await zipOf({ "export.xml": wxr([{ id: 1, title: "A".repeat(100_000), body: "<p>x</p>" }]) });
    shortXml.writeUInt32LE(60, shortXml.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 24);
    await refused("wxr", { data: shortXml, filename: "short.zip" }, /too many bytes/);

    const laughs = wxr(
      [{ id: 1, title: "&lol9;", body: "x" }],
      [],
      `<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol9 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
`,
    );
    await refused("wxr", { data: laughs, filename: "laughs.xml" }, /declares entities/);
    const external = wxr(
      [{ id: 1, title: "&xxe;", body: "x" }],
      [],
      '<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n',
    );
    await refused("wxr", { data: external, filename: "xxe.xml" }, /declares entities/);
    await refused("wxr", { data: "<rss><channel><item>", filename: "broken.xml" }, /could not be read/);
    await refused("substack", { data: "not a zip", filename: "x.zip" }, /is a zip/);
    await refused("wxr", { data: wxr([]), filename: "empty.xml" }, /nothing to import/);
    expect(await app.db.$count(imports, eq(imports.userId, writer.id))).toBe(0);
    expect(await postsOf(writer.id)).toHaveLength(0);
    expect(fs.readdirSync(path.join(app.config.dataDir, "imports"))).toEqual([]);

    // What is hostile inside a post is cleaned like a written post: no script, no javascript: link.
    const state = await importFile(writer, "wxr", {
      data: wxr([
        {
          id: 1,
          title: "<script>alert(1)</script>Trusted title",
          body: '<p onclick="x()">Hi <a href="javascript:alert(1)">click</a> <script>alert(2)</script><img src="http://10.0.0.1/x.png"></p>',
        },
      ]),
      filename: "nasty.xml",
    });
    expect(state.status).toBe("done");
    const [post] = await postsOf(writer.id);
    expect(post?.title).toBe("alert(1)Trusted title");
    expect(post?.description).toBe('<p>Hi <a target="_blank" rel="noopener noreferrer nofollow">click</a> </p>');
  });

  it("fetches images from the old site only when asked, and never from a private address, saying only that it could not", async () => {
    const writer = await signUp(app);
    const file = {
      data: wxr(
        [
          {
            id: 1,
            title: "Pictures",
            link: "https://old.example/pictures/",
            body: '<p>See <img src="https://127.0.0.1/a.png"> and <img src="https://localhost/b.png"> <img src="https://nowhere.invalid/c.png"></p>',
            thumbnail: 9,
          },
        ],
        [{ id: 9, url: "https://192.168.1.20/cover.png" }],
      ),
      filename: "pictures.xml",
    };
    const asked = await importFile(writer, "wxr", file, { fetchImages: "true" });
    expect(asked.status).toBe("done");
    // Whether a name resolves, and to what, is not told: every failure reads the same.
    expect(asked.errors.map((error) => error.reason)).toEqual([
      "image https://127.0.0.1/a.png: could not fetch it",
      "image https://localhost/b.png: could not fetch it",
      "image https://nowhere.invalid/c.png: could not fetch it",
      "image https://192.168.1.20/cover.png: could not fetch it",
    ]);
    const [post] = await postsOf(writer.id);
    expect(post?.image).toBeNull();
    // Not fetched, an https image stays where it was, as in a written post.
    expect(post?.description).toContain('<img src="https://127.0.0.1/a.png" />');
  });

  it("goes on after a restart half-way, cancels, and lets only admins import the whole site with its authors mapped", async () => {
    const writer = await signUp(app);
    const many = Array.from({ length: 12 }, (_, index) => ({
      id: index + 1,
      title: `Post ${index + 1}`,
      body: `<p>Body ${index + 1}</p>`,
    }));
    const upload = path.join(app.config.dataDir, "imports", "restart.part");
    fs.mkdirSync(path.dirname(upload), { recursive: true });
    fs.writeFileSync(upload, wxr(many));
    const user = { id: writer.id, isAdmin: false } as Parameters<typeof startImport>[1];
    const started = await startImport(app.deps, user, {
      format: "wxr",
      file: { path: upload, name: "many.xml" },
      fetchImages: false,
      site: false,
      authors: {},
    });
    let seen = 0;
    // The instance stops after a few items, as a restart would stop it.
    expect(await runNextImport(app.deps, () => ++seen >= 3)).toBe(false);
    const halfWay = (await postsOf(writer.id)).length;
    expect(halfWay).toBeGreaterThan(0);
    expect(halfWay).toBeLessThan(12);
    expect(await runNextImport(app.deps)).toBe(true);
    const [row] = await app.db.select().from(imports).where(eq(imports.id, started.id));
    expect(row).toMatchObject({ status: "done", total: 12, done: 12 });
    expect((await postsOf(writer.id)).map((post) => post.title).sort()).toEqual(many.map((post) => post.title).sort());

    // Cancel before the job takes it: it never runs.
    fs.writeFileSync(upload, wxr(many.map((post) => ({ ...post, id: post.id + 100 }))));
    const second = await startImport(app.deps, user, {
      format: "wxr",
      file: { path: upload, name: "more.xml" },
      fetchImages: false,
      site: false,
      authors: {},
    });
    const cancel = await app.inject({ method: "DELETE", url: `/api/imports/${second.id}`, headers: bearer(writer) });
    expect(cancel.json()).toMatchObject({ status: "cancelled" });
    expect(await runNextImport(app.deps)).toBe(false);
    expect(await postsOf(writer.id)).toHaveLength(12);

    const other = await signUp(app);
    const site = wxr([
      { id: 1, title: "By alice", body: "<p>a</p>", creator: "alice" },
      { id: 2, title: "By nobody mapped", body: "<p>b</p>", creator: "carol" },
    ]);
    const notAdmin = await uploadArchive(
      app,
      writer,
      { format: "wxr", site: "true" },
      { data: site, filename: "site.xml" },
    );
    expect(notAdmin.statusCode).toBe(403);
    const mapped = await importFile(
      admin,
      "wxr",
      { data: site, filename: "site.xml" },
      {
        site: "true",
        authors: `alice = ${other.email}\ncarol = nobody@nowhere.invalid`,
      },
    );
    expect(mapped.status).toBe("done");
    expect((await postsOf(other.id)).map((post) => post.title)).toEqual(["By alice"]);
    const [carol] = await app.db
      .select()
      .from(posts)
      .where(and(eq(posts.title, "By nobody mapped"), eq(posts.userId, admin.id)));
    expect(carol).toBeDefined();
    const badLines = await uploadArchive(
      app,
      admin,
      { format: "wxr", site: "true", authors: "alice" },
      { data: site, filename: "site.xml" },
    );
    expect(badLines.statusCode).toBe(400);
  });

  it("makes Ghost's members who take its newsletter the author's subscribers", async () => {
    const writer = await signUp(app);
    await trust(writer.id);
    const member = (email: string, extra: object = {}) => ({ id: email, email, status: "free", ...extra });
    const ghost = {
      db: [
        {
          meta: { version: "5.0.0" },
          data: {
            posts: [
              {
                id: "p1",
                uuid: "u-1",
                title: "Hello",
                slug: "hello",
                html: "<p>Hi</p>",
                status: "published",
                type: "post",
                published_at: "2024-01-01T00:00:00.000Z",
              },
            ],
            members: [
              member("reads@example.com"),
              member("PAID@Example.com", { status: "paid" }),
              member("bounced@example.com", { email_disabled: true }),
              member("left@example.com", { subscribed: false }),
            ],
          },
        },
      ],
    };
    const state = await importFile(writer, "ghost", { data: JSON.stringify(ghost), filename: "ghost.json" });
    expect(state).toMatchObject({ status: "done", total: 3, done: 3 });
    expect(state.errors).toEqual([
      { item: "Subscribers", reason: expect.stringMatching(/^2 addresses were sent one/) },
    ]);
    const subscribers = await app.db
      .select({ email: emailSubscriptions.email, source: emailSubscriptions.source })
      .from(emailSubscriptions)
      .where(eq(emailSubscriptions.authorId, writer.id));
    expect(subscribers.map((row) => row.email).sort()).toEqual(["paid@example.com", "reads@example.com"]);
    expect(subscribers.every((row) => row.source === "ghost")).toBe(true);
  });

  it("reads back the Ghost JSON of its own export", async () => {
    const writer = await signUp(app);
    const category = (await createCategory(app, admin)).title;
    const first = await createPost(app, writer, category, { title: "Exported one" });
    await createPost(app, writer, category, { title: "Exported draft", status: "draft" });
    const file = path.join(app.config.dataDir, "own-export.zip");
    await writeArchive(app.deps, writer.id, file);
    const ghostJson = await unzipOne(file, "ghost.json");

    const reader = await signUp(app);
    const state = await importFile(reader, "ghost", { data: ghostJson, filename: "ghost.json" });
    expect(state).toMatchObject({ status: "done", total: 2, done: 2, errors: [] });
    const imported = await postsOf(reader.id);
    expect(imported.map((post) => [post.title, post.status]).sort()).toEqual([
      ["Exported draft", "draft"],
      ["Exported one", "published"],
    ]);
    const [original] = await app.db.select().from(posts).where(eq(posts.id, first.id));
    const copy = imported.find((post) => post.title === "Exported one");
    expect(copy?.description).toBe(original?.description);
    expect(copy?.categoryId).toBe(original?.categoryId);
    expect(copy?.publishedAt?.toISOString()).toBe(original?.publishedAt?.toISOString());
    expect(await app.db.$count(posts, sql`${posts.title} = 'Exported one'`)).toBe(2);
  });
});
