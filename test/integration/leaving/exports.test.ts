import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import yauzl from "yauzl";
import type { App } from "../../../src/server/app.ts";
import { dataExports, emailSubscriptions } from "../../../src/server/db/schema.ts";
import { prepareNextExport } from "../../../src/server/services/leaving/exports.ts";
import { buildTestApp } from "../../support/app.ts";
import { createCategory, createPost, recordFeaturedFee, submitPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { png } from "../../support/images.ts";
import { type SmtpServer, startSmtpServer } from "../../support/smtp.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

/** Every entry of a zip, by name, read with yauzl (which refuses entries climbing out of the archive). */
function unzip(data: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(data, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on("entry", (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        }),
      );
      zip.on("end", () => resolve(entries));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

describe.each(databaseTargets)("Download my data on $name", (target) => {
  let app: App;
  let smtp: SmtpServer;
  let category: string;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await buildTestApp(await target.open(), { env: { SMTP_URL: smtp.url } });
    const admin = await signUp(app);
    await makeAdmin(app, admin.id);
    category = (await createCategory(app, admin, `Essays ${Date.now()}`)).title;
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  const call = (method: "GET" | "POST" | "PUT", url: string, session?: { token: string }, payload?: object) =>
    app.inject({ method, url, payload, headers: session ? bearer(session) : {} });
  /** The download link of the newest "ready" mail to `email`. */
  async function linkFor(email: string) {
    await app.mailer.idle();
    const mail = smtp.received.filter((message) => message.to.includes(email)).at(-1);
    const link = /http:\/\/penchain\.test(\/api\/exports\/[0-9a-f-]{36}\/download\/[A-Za-z0-9_-]{43})/.exec(
      mail?.decoded ?? "",
    )?.[1];
    if (!link) throw new Error(`no download link mailed to ${email}`);
    return link;
  }

  it("prepares every post as HTML and Markdown with its images, the Ghost JSON and the rest, mailed as a link that works once", async () => {
    const [writer, reader] = [await signUp(app, { firstName: "Wren" }), await signUp(app)];
    const hostile = '<script>alert(1)</script> ../../etc "quoted"';
    const covered = await submitPost(
      app,
      writer,
      { title: hostile, description: "<p>A <strong>bold</strong> start.</p>", category, isFeatured: "false" },
      { data: await png(64, 48), filename: "cover.png", type: "image/png" },
    );
    expect(covered.statusCode).toBe(201);
    const withCover = covered.json() as { id: string; image: string };
    const draft = await createPost(app, writer, category, { title: "Half written", status: "draft" });
    await call("POST", "/api/comments", writer, { postId: withCover.id, description: "My own note" });
    await call("PUT", "/api/users/follow", reader, { followId: writer.id });
    await app.db.insert(emailSubscriptions).values({
      authorId: writer.id,
      email: "fan@example.org",
      status: "active",
      confirmedAt: new Date(),
    });
    await recordFeaturedFee(app, writer.id, withCover.id, `0x${"cd".repeat(32)}`);

    const asked = await call("POST", "/api/exports", writer);
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toMatchObject({ status: "queued" });
    // Asking again while it is on its way answers the same one.
    expect((await call("POST", "/api/exports", writer)).json().id).toBe(asked.json().id);
    await app.exports.idle();
    const state = (await call("GET", `/api/exports/${asked.json().id}`, writer)).json();
    expect(state).toMatchObject({ status: "ready" });
    expect(new Date(state.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 60 * 60_000);
    expect((await call("GET", `/api/exports/${asked.json().id}`, reader)).statusCode).toBe(404);
    expect((await call("GET", "/api/exports/latest", writer)).json().export.id).toBe(asked.json().id);

    const link = await linkFor(writer.email);
    const download = await app.inject({ url: link });
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-type"]).toBe("application/zip");
    expect(download.headers["cache-control"]).toBe("private, no-store");
    const files = await unzip(download.rawPayload);
    const names = [...files.keys()];
    // No name climbs out or carries the title's markup.
    for (const name of names) expect(name).toMatch(/^[a-z0-9_./-]+$/i);
    for (const name of names) expect(name.split("/")).not.toContain("..");
    const text = (name: string) => files.get(name)?.toString("utf8") ?? "";
    expect(JSON.parse(text("profile.json"))).toMatchObject({ id: writer.id, email: writer.email, firstName: "Wren" });

    const folder = names
      .find((name) => name.endsWith(`-${withCover.id.slice(0, 8)}/index.html`))
      ?.replace(/index\.html$/, "");
    expect(folder).toMatch(/^posts\/script-alert-1-script-etc-quoted-[0-9a-f]{8}\/$/);
    const html = text(`${folder}index.html`);
    expect(html).toContain("<h1>&lt;script&gt;alert(1)&lt;/script&gt; ../../etc &quot;quoted&quot;</h1>");
    expect(html).not.toContain("<script>");
    expect(html).toContain("<strong>bold</strong>");
    const image = names.find((name) => name.startsWith(`${folder}images/`));
    expect(image).toBeDefined();
    expect(
      files
        .get(image as string)
        ?.subarray(0, 4)
        .toString("latin1"),
    ).toBe("RIFF");
    expect(html).toContain(`<img src="${(image as string).slice((folder as string).length)}"`);
    const [, front, body] = text(`${folder}index.md`).split(/^---$/m);
    expect(parseYaml(front as string)).toMatchObject({
      title: hostile,
      status: "published",
      category,
      id: withCover.id,
      cover: (image as string).slice((folder as string).length),
    });
    expect(body).toContain("A **bold** start.");
    expect(names.some((name) => name.endsWith(`-${draft.id.slice(0, 8)}/index.md`))).toBe(true);

    const ghost = JSON.parse(text("ghost.json"));
    const data = ghost.db[0].data;
    expect(ghost.db[0].meta.version).toMatch(/^5\./);
    expect(data.posts.map((post: { status: string }) => post.status).sort()).toEqual(["draft", "published"]);
    expect(data.posts.find((post: { id: string }) => post.id === withCover.id)).toMatchObject({
      title: hostile,
      html: "<p>A <strong>bold</strong> start.</p>",
      feature_image: `http://penchain.test${withCover.image}`,
    });
    expect(data.tags).toEqual([expect.objectContaining({ name: category })]);
    expect(data.posts_tags).toHaveLength(2);

    expect(JSON.parse(text("comments.json"))).toMatchObject([{ text: "My own note", postId: withCover.id }]);
    expect(JSON.parse(text("followers.json")).here).toMatchObject([{ id: reader.id }]);
    expect(text("subscribers.csv")).toContain("fan@example.org,");
    expect(JSON.parse(text("payments.json")).paid).toMatchObject([
      { txHash: `0x${"cd".repeat(32)}`, purpose: "featured" },
    ]);

    // Once only.
    const again = await app.inject({ url: link });
    expect(again.statusCode).toBe(410);
    expect(again.json().message).toMatch(/^This download link was used already or has expired/);
    expect((await app.inject({ url: link.replace(/.{4}$/, "AAAA") })).statusCode).toBe(410);
  });

  it("holds only what its owner could read now: no new title of another's post taken back to a draft", async () => {
    const [author, reader] = [await signUp(app), await signUp(app)];
    const post = await createPost(app, author, category, { title: "Out in the open" });
    const kept = await createPost(app, author, category, { title: "Still public" });
    await call("POST", "/api/comments", reader, { postId: post.id, description: "Nice one" });
    await call("POST", "/api/comments", reader, { postId: kept.id, description: "Also nice" });
    const renamed = await call("PUT", `/api/posts/${post.id}`, author, {
      title: "Secret plans",
      description: "<p>Not yet</p>",
      category,
      status: "draft",
    });
    expect(renamed.statusCode).toBe(200);
    expect((await call("POST", "/api/exports", reader)).statusCode).toBe(202);
    await app.exports.idle();
    const files = await unzip((await app.inject({ url: await linkFor(reader.email) })).rawPayload);
    const everything = [...files.values()].map((file) => file.toString("latin1")).join("\n");
    expect(everything).not.toContain("Secret plans");
    const written = JSON.parse(files.get("comments.json")?.toString("utf8") ?? "[]");
    // Their own words stay theirs; the post they can no longer open is named by nothing but its id.
    expect(written).toEqual([
      expect.objectContaining({ text: "Nice one", postId: post.id, postTitle: null, postUrl: null }),
      expect.objectContaining({
        text: "Also nice",
        postTitle: "Still public",
        postUrl: `http://penchain.test/posts/${kept.id}`,
      }),
    ]);
  });

  it("takes over an archive whose instance stopped half-way, and refuses a fourth a day", async () => {
    const user = await signUp(app);
    await createPost(app, user, category, { title: "Survives a restart" });
    const [stuck] = await app.db
      .insert(dataExports)
      .values({ userId: user.id, status: "running", leaseUntil: new Date(Date.now() - 1000) })
      .returning();
    expect(await prepareNextExport(app.deps)).toBe(true);
    const [row] = await app.db
      .select()
      .from(dataExports)
      .where(eq(dataExports.id, stuck?.id as string));
    expect(row?.status).toBe("ready");
    const files = await unzip((await app.inject({ url: await linkFor(user.email) })).rawPayload);
    expect([...files.keys()].some((name) => name.includes("survives-a-restart"))).toBe(true);

    for (let asked = 1; asked < 3; asked++) {
      expect((await call("POST", "/api/exports", user)).statusCode).toBe(202);
      await app.exports.idle();
    }
    const fourth = await call("POST", "/api/exports", user);
    expect(fourth.statusCode).toBe(429);
    expect((await call("POST", "/api/exports")).statusCode).toBe(401);
  });
});
