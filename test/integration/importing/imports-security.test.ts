import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import {
  categories,
  comments,
  importedProvenance,
  imports,
  postRedirects,
  posts,
  users,
} from "../../../src/server/db/schema.ts";
import type { AuthUser } from "../../../src/server/services/core/auth-user.ts";
import { runNextImport } from "../../../src/server/services/importing/import-job.ts";
import { startImport } from "../../../src/server/services/importing/import-requests.ts";
import { suspend } from "../../../src/server/services/moderation/suspension.ts";
import { buildTestApp } from "../../support/app.ts";
import { importArchive, type WxrPost, wxr, zipOf } from "../../support/archives.ts";
import { createCategory } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

type State = { id: string; status: string; error: string | null; errors: { item: string; reason: string }[] };

describe.each(databaseTargets)("Imports keep to the site's addresses and rules on $name", (target) => {
  let app: App;
  let admin: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    // A new account publishes three posts a day here, as on a real site.
    app = await buildTestApp(await target.open(), { env: { NEW_ACCOUNT_POSTS_PER_DAY: "3" } });
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
    await createCategory(app, admin, `Seed ${Date.now()}`);
  });
  afterAll(async () => {
    await app.close();
  });

  async function importWxr(session: { token: string }, list: WxrPost[]) {
    return importArchive<State>(app, session, { format: "wxr" }, { data: wxr(list), filename: "old.xml" });
  }
  /** An account a day old with its address verified: past the new accounts' limits. */
  const settle = (userId: string) =>
    app.db
      .update(users)
      .set({ isAccountVerified: true, createdAt: new Date(Date.now() - 7 * 86_400_000) })
      .where(eq(users.id, userId));
  const get = (url: string) => app.inject({ method: "GET", url });
  const postsOf = (userId: string) => app.db.select().from(posts).where(eq(posts.userId, userId));

  it("brings a post whose provenance.json nests too deep, without that file", async () => {
    const writer = await signUp(app);
    await settle(writer.id);
    const depth = 100_000;
    const revision = {
      revision: 1,
      digest: "a".repeat(64),
      previous: null,
      publishedAt: "2020-01-01T00:00:00.000Z",
      canonical: { x: 0 },
      author: null,
      site: { proof: {}, keyId: "k", document: {} },
    };
    const file = JSON.stringify({
      format: "penchain-provenance/1",
      post: "elsewhere",
      page: "https://elsewhere.example/posts/1/provenance",
      chainId: 1,
      siteKey: null,
      revisions: [revision],
    }).replace('{"x":0}', `${'{"x":'.repeat(depth)}0${"}".repeat(depth)}`);
    const zip = await zipOf(
      { "posts/deep/index.md": "---\ntitle: Deep words\n---\nHello.\n", "posts/deep/provenance.json": file },
      false,
    );
    const state = await importArchive<State>(app, writer, { format: "markdown" }, { data: zip, filename: "deep.zip" });
    expect(state.status).toBe("done");
    const [post] = await postsOf(writer.id);
    expect(post?.title, JSON.stringify(state.errors)).toBe("Deep words");
    expect(state.errors.map((error) => error.reason)).toEqual([
      "Its provenance.json was not kept: it is not a Penchain post's provenance.",
    ]);
    expect(
      await app.db
        .select()
        .from(importedProvenance)
        .where(eq(importedProvenance.postId, post?.id as string)),
    ).toEqual([]);
  });

  it("never lets an old address take over a screen, a route or a file of the site", async () => {
    const writer = await signUp(app);
    await settle(writer.id);
    const hostile = [
      "/update-password",
      "/rules",
      "/moderation",
      "/settings/account",
      "/decisions",
      "/notifications",
      `/profile/${admin.id}`,
      "/Update-Password/",
      "/%75pdate-password",
      "//moderation",
      "/x/../decisions",
      "/.well-known/webfinger",
      "/favicon.ico",
      "/uploads/photo.png",
      "/ap/users/someone",
      "/robots.txt",
    ];
    const list: WxrPost[] = hostile.map((address, index) => ({
      id: index + 1,
      title: `Hostile ${index}`,
      body: "<p>Gotcha.</p>",
      link: `https://old.example${address}`,
    }));
    list.push({ id: 99, title: "Fine", body: "<p>Fine.</p>", link: "https://old.example/2019/05/fine/" });
    const state = await importWxr(writer, list);
    expect(state.status).toBe("done");
    const refused = state.errors.filter((error) => error.reason.includes("was not kept"));
    expect(refused.length).toBeGreaterThanOrEqual(hostile.length - 2);
    for (const address of hostile) {
      const answer = await get(address);
      expect(answer.statusCode, address).not.toBe(301);
    }
    const kept = await app.db.select().from(postRedirects);
    expect(kept.map((row) => row.path)).toEqual(["/2019/05/fine"]);
    expect((await get("/2019/05/fine/")).statusCode).toBe(301);

    // An address kept before this rule is not answered either.
    const [fine] = await app.db.select().from(posts).where(eq(posts.title, "Fine"));
    await app.db.insert(postRedirects).values({ path: "/update-password", postId: fine?.id as string });
    expect((await get("/update-password")).statusCode).not.toBe(301);
    await app.db.delete(postRedirects).where(eq(postRedirects.path, "/update-password"));
  });

  it("answers an old address only while its post is public", async () => {
    const writer = await signUp(app);
    await settle(writer.id);
    await importWxr(writer, [{ id: 1, title: "Moved", body: "<p>Here.</p>", link: "https://old.example/moved-away/" }]);
    const [post] = await postsOf(writer.id);
    expect((await get("/moved-away")).headers.location).toBe(`/posts/${post?.id}`);
    await app.db
      .update(posts)
      .set({ moderation: "removed" })
      .where(eq(posts.id, post?.id as string));
    expect((await get("/moved-away")).statusCode).not.toBe(301);
    await app.db
      .update(posts)
      .set({ moderation: "visible", status: "draft" })
      .where(eq(posts.id, post?.id as string));
    expect((await get("/moved-away")).statusCode).not.toBe(301);
    await app.db
      .update(posts)
      .set({ status: "published" })
      .where(eq(posts.id, post?.id as string));
    const moved = await get("/moved-away");
    expect(moved.statusCode).toBe(301);
    // No cache may keep answering it once the post is hidden.
    expect(moved.headers["cache-control"]).toBe("no-cache");
    await app.db.transaction((tx) => suspend(tx, app.deps, writer.id));
    expect((await get("/moved-away")).statusCode).not.toBe(301);
  });

  it("tells an importer whose old address another post claimed first, which keeps it", async () => {
    const first = await signUp(app);
    const link = "https://old.example/claimed-first/";
    await importWxr(first, [{ id: 1, title: "First", body: "<p>Here first.</p>", link }]);
    const [early] = await postsOf(first.id);
    const state = await importWxr(admin, [{ id: 2, title: "Second", body: "<p>Here second.</p>", link }]);
    expect(state.errors).toContainEqual({
      item: "Second",
      reason: "Its old address /claimed-first was not kept: another post already answers there.",
    });
    expect((await get("/claimed-first")).headers.location).toBe(`/posts/${early?.id}`);
  });

  /** Queues `list` for `session` without waking the job, so the test runs it step by step. */
  async function queue(userId: string, list: WxrPost[], name: string) {
    const upload = path.join(app.config.dataDir, "imports", `${name}.part`);
    fs.mkdirSync(path.dirname(upload), { recursive: true });
    fs.writeFileSync(upload, wxr(list));
    const [user] = await app.db.select().from(users).where(eq(users.id, userId));
    return startImport(app.deps, user as AuthUser, {
      format: "wxr",
      file: { path: upload, name: `${name}.xml` },
      fetchImages: false,
      site: false,
      authors: {},
    });
  }
  const many = (count: number, from = 1): WxrPost[] =>
    Array.from({ length: count }, (_, index) => ({
      id: from + index,
      title: `Old post ${from + index}`,
      body: `<p>Text ${from + index}.</p>`,
    }));

  it("stops a suspended account's import, holds a limited one's, and lets staff cancel anyone's", async () => {
    const writer = await signUp(app);
    await settle(writer.id);
    const started = await queue(writer.id, many(30), "suspended");
    let seen = 0;
    // The instance stops after a few items; the owner is suspended before another takes it over.
    expect(await runNextImport(app.deps, () => ++seen >= 3)).toBe(false);
    await app.db.transaction((tx) => suspend(tx, app.deps, writer.id));
    await runNextImport(app.deps);
    const [row] = await app.db.select().from(imports).where(eq(imports.id, started.id));
    expect(row?.status).toBe("cancelled");
    expect(row?.error).toMatch(/suspended/);
    const written = await postsOf(writer.id);
    expect(written.length).toBeLessThan(30);
    expect(written.filter((post) => post.moderation === "visible")).toEqual([]);

    const limited = await signUp(app);
    await settle(limited.id);
    await queue(limited.id, many(8), "limited");
    seen = 0;
    expect(await runNextImport(app.deps, () => ++seen >= 2)).toBe(false);
    await app.db.update(users).set({ limitedAt: new Date() }).where(eq(users.id, limited.id));
    await runNextImport(app.deps);
    const after = await postsOf(limited.id);
    expect(after).toHaveLength(8);
    expect(after.filter((post) => post.moderation === "visible").length).toBeLessThan(5);

    const other = await signUp(app);
    const theirs = await queue(other.id, many(3), "theirs");
    const moderator = await signUp(app);
    await app.db.update(users).set({ isModerator: true }).where(eq(users.id, moderator.id));
    const stranger = await signUp(app);
    const refused = await app.inject({ method: "DELETE", url: `/api/imports/${theirs.id}`, headers: bearer(stranger) });
    expect(refused.statusCode).toBe(404);
    const cancelled = await app.inject({
      method: "DELETE",
      url: `/api/imports/${theirs.id}`,
      headers: bearer(moderator),
    });
    expect(cancelled.json()).toMatchObject({ status: "cancelled" });
    expect(await runNextImport(app.deps)).toBe(false);
    expect(await postsOf(other.id)).toEqual([]);
  });

  it("keeps a new account to its few posts a day, drafting the rest and saying so per item", async () => {
    const writer = await signUp(app);
    const state = await importWxr(writer, many(6));
    expect(state.status).toBe("done");
    const written = await postsOf(writer.id);
    expect(written.filter((post) => post.status === "published")).toHaveLength(3);
    expect(written.filter((post) => post.status === "draft")).toHaveLength(3);
    expect(
      state.errors.filter((error) => error.reason.startsWith("made a draft: New accounts can publish")),
    ).toHaveLength(3);
  });

  it("schedules a post dated in the future instead of pinning it above every other", async () => {
    const writer = await signUp(app);
    const state = await importWxr(writer, [
      { id: 1, title: "From the future", body: "<p>Top of the list forever.</p>", date: "2099-01-01 00:00:00" },
      { id: 2, title: "From the past", body: "<p>Old.</p>", date: "2015-03-04 05:06:07" },
    ]);
    const written = await postsOf(writer.id);
    const future = written.find((post) => post.title === "From the future");
    const past = written.find((post) => post.title === "From the past");
    expect(future?.status).toBe("scheduled");
    expect(past).toMatchObject({ status: "published" });
    expect(past?.publishedAt?.toISOString()).toBe("2015-03-04T05:06:07.000Z");
    expect(state.errors.map((error) => error.reason)).toContain("Dated in the future: scheduled for then.");
    const list = await get("/api/posts?limit=50");
    expect(JSON.stringify(list.json())).not.toContain("From the future");
  });

  it("makes categories only for admins, and screens comments and their writers' names", async () => {
    const terms = await app.inject({
      method: "PUT",
      url: "/api/moderation/terms",
      headers: bearer(admin),
      payload: { terms: [{ term: "zorbmax", action: "refuse" }] },
    });
    expect(terms.statusCode, terms.body).toBe(200);
    const writer = await signUp(app);
    const title = `Brand new ${Date.now()}`;
    const state = await importWxr(writer, [
      {
        id: 1,
        title: "With comments",
        body: "<p>Body.</p>",
        category: title,
        comments: [
          { id: 1, author: "Ana", date: "2019-05-02 08:30:00", content: "Lovely." },
          { id: 2, author: "Bob", date: "2019-05-02 08:31:00", content: "a zorbmax here" },
          { id: 3, author: "zorbmax fan", date: "2019-05-02 08:32:00", content: "Hi." },
          { id: 4, author: "Spam", date: "2019-05-02 08:33:00", content: "cheap pills https://spam.example" },
          { id: 5, author: "Rude", date: "2019-05-02 08:34:00", content: "you absolute cunt" },
        ],
      },
    ]);
    expect(state.status).toBe("done");
    expect(await app.db.select().from(categories).where(eq(categories.title, title))).toEqual([]);
    const [post] = await postsOf(writer.id);
    expect(post?.status).toBe("published");
    const kept = await app.db
      .select()
      .from(comments)
      .where(eq(comments.postId, post?.id as string));
    expect(kept.map((row) => [row.importedAuthor, row.moderation]).sort()).toEqual([
      ["Ana", "visible"],
      ["Rude", "held"],
    ]);
    expect(state.errors.map((error) => error.reason).join("\n")).toMatch(/not on this site.*\n?.*3 of its comments/s);

    const adminTitle = `Admin's own ${Date.now()}`;
    await importWxr(admin, [
      { id: 1, title: "Admin post", body: "<p>a</p>", category: adminTitle },
      { id: 2, title: "Admin post 2", body: "<p>b</p>", category: "zorbmax stuff" },
    ]);
    expect(await app.db.select().from(categories).where(eq(categories.title, adminTitle))).toHaveLength(1);
    expect(
      await app.db
        .select()
        .from(categories)
        .where(and(eq(categories.title, "zorbmax stuff"))),
    ).toEqual([]);
  });
});
