import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { posts } from "../../../src/server/db/schema.ts";
import { buildTestApp, keepOpen } from "../../support/app.ts";
import { createCategory, createPost, submitPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

/** Built by `npm run build` (npm test builds first), for the reader pages. */
const CLIENT_DIR = path.resolve(import.meta.dirname, "../../../dist/client");
type Session = Awaited<ReturnType<typeof signUp>>;
const inAMinute = () => new Date(Date.now() + 60_000).toISOString();

describe.each(databaseTargets)("drafts and scheduled posts on $name", (target) => {
  let app: App;
  let author: Session;
  let reader: Session;
  let topic: string;
  beforeAll(async () => {
    app = await buildTestApp(await target.open(), { clientDir: CLIENT_DIR });
    const admin = await signUp(app);
    await makeAdmin(app, admin.id);
    author = await signUp(app, { firstName: "Wanda", lastName: "Writer" });
    reader = await signUp(app);
    topic = (await createCategory(app, admin, "Drafting")).title;
  });
  afterAll(() => app.close());

  const get = (url: string, session?: Session) =>
    app.inject({ method: "GET", url, headers: session ? bearer(session) : {} });
  const write = (status: string, extra: Record<string, string> = {}) =>
    createPost(app, author, topic, {
      title: `Unreleased ${status}`,
      description: "<p>Zanzibar secret words</p>",
      status,
      ...extra,
    });
  const idsIn = async (url: string, session?: Session) =>
    ((await get(url, session)).json().items as { id: string }[]).map((post) => post.id);
  /** Every public place a post shows: lists, filters, search, the profile, feeds, the sitemap and its page. */
  async function publicPlaces(id: string) {
    const profile = (await get(`/api/users/profile/${author.id}`, reader)).json();
    return {
      list: (await idsIn("/api/posts?limit=100")).includes(id),
      byAuthor: (await idsIn(`/api/posts?author=${author.id}`)).includes(id),
      byCategory: (await idsIn(`/api/posts?category=${topic}`)).includes(id),
      search: (await idsIn("/api/posts?q=zanzibar")).includes(id),
      signedInList: (await idsIn("/api/posts?limit=100", reader)).includes(id),
      detail: (await get(`/api/posts/${id}`)).statusCode,
      otherReader: (await get(`/api/posts/${id}`, reader)).statusCode,
      comments: (await get(`/api/posts/${id}/comments`)).statusCode,
      profile: profile.posts.some((post: { id: string }) => post.id === id),
      feed: (await get("/rss.xml")).body.includes(id),
      authorFeed: (await get(`/rss.xml?author=${author.id}`)).body.includes(id),
      sitemap: (await get("/sitemap.xml")).body.includes(id),
      page: (await get(`/posts/${id}`)).statusCode,
    };
  }
  const hidden = {
    list: false,
    byAuthor: false,
    byCategory: false,
    search: false,
    signedInList: false,
    detail: 404,
    otherReader: 404,
    comments: 404,
    profile: false,
    feed: false,
    authorFeed: false,
    sitemap: false,
    page: 404,
  };
  const shown = {
    ...hidden,
    ...Object.fromEntries(Object.keys(hidden).map((key) => [key, true])),
    detail: 200,
    otherReader: 200,
    comments: 200,
    page: 200,
  };

  it("keeps a draft from everyone but its author, even after the public places were read and cached", async () => {
    await publicPlaces("none");
    const draft = await write("draft");
    expect(draft).toMatchObject({ status: "draft", publishedAt: null });
    expect(await publicPlaces(draft.id)).toEqual(hidden);
    // Its author sees it, and that answer is not cached for anyone else.
    const own = await get(`/api/posts/${draft.id}`, author);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ id: draft.id, status: "draft" });
    expect((await get(`/api/posts/${draft.id}`)).statusCode).toBe(404);
    const profile = (await get(`/api/users/profile/${author.id}`, reader)).json();
    expect(profile.postCount).toBe(0);
  });

  it("publishes a post at once by default, its publish time its creation time", async () => {
    const post = await createPost(app, author, topic, { title: "Straight out" });
    const read = (await get(`/api/posts/${post.id}`)).json();
    expect(read).toMatchObject({ status: "published" });
    expect(read.publishedAt).toBe(read.createdAt);
  });

  it("takes no comments or reactions on a draft", async () => {
    const draft = await write("draft");
    const comment = await app.inject({
      method: "POST",
      url: "/api/comments",
      headers: bearer(reader),
      payload: { postId: draft.id, description: "First!" },
    });
    expect(comment.statusCode).toBe(404);
    const like = await app.inject({
      method: "PUT",
      url: "/api/posts/likes",
      headers: bearer(author),
      payload: { postId: draft.id },
    });
    expect(like.statusCode).toBe(404);
  });

  it("lists an author's drafts and scheduled posts for them alone, last edited first", async () => {
    const draft = await write("draft");
    const scheduled = await write("scheduled", { publishAt: inAMinute() });
    const mine = (await get("/api/posts/drafts", author)).json().items as { id: string; status: string }[];
    expect(mine.slice(0, 2).map((post) => [post.id, post.status])).toEqual([
      [scheduled.id, "scheduled"],
      [draft.id, "draft"],
    ]);
    expect(mine.every((post) => post.status !== "published")).toBe(true);
    expect((await get("/api/posts/drafts", reader)).json().items).toEqual([]);
    expect((await get("/api/posts/drafts")).statusCode).toBe(401);
    const first = (await get("/api/posts/drafts?limit=1", author)).json();
    const second = (await get(`/api/posts/drafts?limit=1&cursor=${first.nextCursor}`, author)).json();
    expect([first.items[0].id, second.items[0].id]).toEqual([scheduled.id, draft.id]);
  });

  it("schedules only at a time to come, and keeps the time", async () => {
    for (const publishAt of [undefined, "", "soon", new Date(Date.now() - 1000).toISOString()]) {
      const response = await submitPost(app, author, {
        title: "When?",
        description: "<p>x</p>",
        category: topic,
        isFeatured: "false",
        status: "scheduled",
        ...(publishAt === undefined ? {} : { publishAt }),
      });
      expect(response.statusCode, String(publishAt)).toBe(400);
      expect(response.json().message).toBe("Choose a date and time in the future");
    }
    const at = inAMinute();
    const scheduled = await write("scheduled", { publishAt: at });
    expect(scheduled).toMatchObject({ status: "scheduled", publishedAt: at });
    expect(await publicPlaces(scheduled.id)).toEqual(hidden);
    const unknown = await submitPost(app, author, {
      title: "x",
      description: "<p>x</p>",
      category: topic,
      isFeatured: "false",
      status: "later",
    });
    expect(unknown.statusCode).toBe(400);
  });

  it("publishes a scheduled post when its time comes, once, and shows it everywhere at once", async () => {
    const scheduled = await write("scheduled", { publishAt: inAMinute() });
    expect(await app.publisher.publishDue()).not.toContain(scheduled.id);
    // Its time comes (moved, rather than waited for).
    await app.db
      .update(posts)
      .set({ publishedAt: new Date(Date.now() - 1000) })
      .where(eq(posts.id, scheduled.id));
    expect(await app.publisher.publishDue()).toEqual([scheduled.id]);
    expect(await app.publisher.publishDue()).toEqual([]);
    expect(await publicPlaces(scheduled.id)).toEqual(shown);
    expect((await get(`/api/posts/${scheduled.id}`)).json()).toMatchObject({ status: "published" });
  });

  it("publishes a draft from Edit with the time of publishing, and takes a published post back to a draft", async () => {
    const draft = await write("draft");
    const edit = (status: string, extra: Record<string, string> = {}) =>
      app.inject({
        method: "PUT",
        url: `/api/posts/${draft.id}`,
        headers: bearer(author),
        payload: { title: "Edited", description: "<p>Zanzibar</p>", category: topic, status, ...extra },
      });
    const before = Date.now();
    const published = (await edit("published")).json();
    expect(published.status).toBe("published");
    expect(Date.parse(published.publishedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(await publicPlaces(draft.id)).toEqual(shown);
    // Publishing again keeps the first date.
    expect((await edit("published")).json().publishedAt).toBe(published.publishedAt);
    // Without a status an edit leaves it as it is.
    const plain = await app.inject({
      method: "PUT",
      url: `/api/posts/${draft.id}`,
      headers: bearer(author),
      payload: { title: "Edited again", description: "<p>Zanzibar</p>", category: topic },
    });
    expect(plain.json()).toMatchObject({ status: "published", publishedAt: published.publishedAt });
    expect((await edit("draft")).json()).toMatchObject({ status: "draft", publishedAt: null });
    expect(await publicPlaces(draft.id)).toEqual(hidden);
    expect((await edit("scheduled", { publishAt: inAMinute() })).json().status).toBe("scheduled");
    expect((await edit("scheduled", { publishAt: "yesterday" })).statusCode).toBe(400);
  });
});

describe.each(databaseTargets)("the scheduled publisher on $name", (target) => {
  it("publishes a post that fell due while no server ran, when the next one starts", async () => {
    const database = await target.open();
    const first = await buildTestApp(keepOpen(database));
    const admin = await signUp(first);
    await makeAdmin(first, admin.id);
    const topic = (await createCategory(first, admin)).title;
    const post = await createPost(first, admin, topic, {
      status: "scheduled",
      publishAt: new Date(Date.now() + 1500).toISOString(),
    });
    expect(post.status).toBe("scheduled");
    await first.close();
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const [row] = await database.db.select({ status: posts.status }).from(posts).where(eq(posts.id, post.id));
    expect(row?.status).toBe("scheduled");

    const next = await buildTestApp(database);
    try {
      await expect
        .poll(async () => (await next.inject({ method: "GET", url: `/api/posts/${post.id}` })).statusCode, {
          timeout: 3000,
        })
        .toBe(200);
    } finally {
      await next.close();
    }
  });
});

describe.each(databaseTargets.filter((target) => target.name === "postgres"))(
  "two instances on one $name database",
  (target) => {
    it("publish each due post exactly once, however their checks overlap", async () => {
      const database = await target.open();
      // Their own checks run at start only (before anything is due), so every publish below is one of the bursts'.
      const env = { PUBLISH_CHECK_MS: "60000" };
      const one = await buildTestApp(keepOpen(database), { env });
      const two = await buildTestApp(keepOpen(database), { env });
      try {
        const admin = await signUp(one);
        await makeAdmin(one, admin.id);
        const topic = (await createCategory(one, admin)).title;
        const ids: string[] = [];
        for (let i = 0; i < 30; i++) {
          const post = (await createPost(one, admin, topic, { status: "scheduled", publishAt: inAMinute() })) as {
            id: string;
          };
          ids.push(post.id);
        }
        // All fall due at once, and both instances race for them, four checks each.
        await database.db.execute(
          sql`update posts set published_at = now() - interval '1 second' where status = 'scheduled'`,
        );
        const bursts = await Promise.all(
          Array.from({ length: 8 }, (_, i) => (i % 2 ? one : two).publisher.publishDue()),
        );
        const published = bursts.flat();
        expect(published.length).toBe(ids.length);
        expect(new Set(published)).toEqual(new Set(ids));
        const rows = await database.db.select({ status: posts.status }).from(posts);
        expect(rows.every((row) => row.status === "published")).toBe(true);
      } finally {
        await one.close();
        await two.close();
        await database.close();
      }
    });
  },
);
