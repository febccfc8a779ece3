import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratchPostgres } from "../../../scripts/lib/scratch-postgres.ts";
import type { App } from "../../../src/server/app.ts";
import { openDatabase } from "../../../src/server/db/client.ts";
import { posts } from "../../../src/server/db/schema.ts";
import { buildTestApp, keepOpen } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets, pgliteTarget } from "../../support/databases.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

type Session = Awaited<ReturnType<typeof signUp>>;
const MAX_AGE_MS = 3000;
interface ListedPost {
  id: string;
  title: string;
  likesCount: number;
  commentsCount: number;
  isFeatured: boolean;
  category: string;
  viewerReaction: string | null;
}

describe.each(databaseTargets)("cached reads stay right on $name", (target) => {
  let app: App;
  let admin: Session;
  let reader: Session;
  let topic: string;
  beforeAll(async () => {
    app = await buildTestApp(await target.open(), { env: { READ_CACHE_MAX_AGE_MS: String(MAX_AGE_MS) } });
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
    reader = await signUp(app);
    topic = (await createCategory(app, admin)).title;
  });
  afterAll(() => app.close());

  const list = async (query = "") =>
    (await app.inject({ method: "GET", url: `/api/posts${query}` })).json().items as ListedPost[];
  const detail = async (id: string, session?: Session) =>
    (await app.inject({ method: "GET", url: `/api/posts/${id}`, headers: session ? bearer(session) : {} })).json();
  const listed = async (id: string, query = "") => (await list(query)).find((post) => post.id === id);
  const write = (method: "POST" | "PUT" | "DELETE", url: string, payload: object, session: Session) =>
    app.inject({ method, url, payload, headers: bearer(session) });

  it("serves repeated anonymous reads from the cache, with an ETag and 304", async () => {
    const post = await createPost(app, admin, topic);
    const first = await app.inject({ method: "GET", url: "/api/posts" });
    const second = await app.inject({ method: "GET", url: "/api/posts" });
    expect(second.body).toBe(first.body);
    expect(first.headers.etag).toMatch(/^W\/"/);
    const notModified = await app.inject({
      method: "GET",
      url: "/api/posts",
      headers: { "if-none-match": String(first.headers.etag) },
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe("");
    expect((await detail(post.id)).id).toBe(post.id);
  });

  it("shows a like, a comment, an edit and a deletion in the next anonymous read", async () => {
    const post = await createPost(app, admin, topic);
    expect(await listed(post.id)).toMatchObject({ likesCount: 0, commentsCount: 0 });
    expect((await detail(post.id)).likesCount).toBe(0);

    await write("PUT", "/api/posts/likes", { postId: post.id }, reader);
    expect((await listed(post.id))?.likesCount).toBe(1);
    expect((await detail(post.id)).likesCount).toBe(1);

    await write("POST", "/api/comments", { postId: post.id, description: "Fresh comment" }, reader);
    expect((await listed(post.id))?.commentsCount).toBe(1);
    expect((await detail(post.id)).comments[0].description).toBe("Fresh comment");
    const comments = await app.inject({ method: "GET", url: `/api/posts/${post.id}/comments` });
    expect(comments.json().items).toHaveLength(1);
    const commentId = comments.json().items[0].id;
    await write("PUT", `/api/comments/${commentId}`, { description: "Edited comment" }, reader);
    expect((await detail(post.id, reader)).comments[0].description).toBe("Edited comment");
    expect((await detail(post.id)).comments[0].description).toBe("Edited comment");

    const edit = { title: "Edited title", description: "<p>new</p>", category: topic };
    expect((await write("PUT", `/api/posts/${post.id}`, edit, admin)).statusCode).toBe(200);
    expect((await listed(post.id))?.title).toBe("Edited title");
    expect((await detail(post.id)).title).toBe("Edited title");

    expect((await write("DELETE", `/api/posts/${post.id}`, {}, admin)).statusCode).toBe(200);
    expect(await listed(post.id)).toBeUndefined();
    expect((await app.inject({ method: "GET", url: `/api/posts/${post.id}` })).statusCode).toBe(404);
  });

  it("shows a category change in the next read", async () => {
    const post = await createPost(app, admin, topic);
    const other = await createCategory(app, admin);
    const byOther = `?category=${encodeURIComponent(other.title)}`;
    expect(await listed(post.id, byOther)).toBeUndefined();
    const categories = async () =>
      (await app.inject({ method: "GET", url: "/api/category?limit=100" }))
        .json()
        .items.map((c: { title: string }) => c.title);
    expect(await categories()).toContain(other.title);

    await write(
      "PUT",
      `/api/posts/${post.id}`,
      { title: "Moved", description: "<p>x</p>", category: other.title },
      admin,
    );
    expect((await listed(post.id, byOther))?.category).toBe(other.title);
    const renamed = `${other.title} renamed`;
    await write("PUT", `/api/category/${other.id}`, { title: renamed }, admin);
    expect(await categories()).toContain(renamed);
    expect((await listed(post.id))?.category).toBe(renamed);
    // Featured posts (created, and unfeatured by a reorg) are checked against a real chain in payments.test.ts.
  });

  it("gives a signed-in reader their own reaction, never another reader's", async () => {
    const post = await createPost(app, admin, topic);
    const other = await signUp(app);
    await write("PUT", "/api/posts/dislikes", { postId: post.id }, other);
    await list(); // the anonymous page is cached now
    const mine = async (session: Session) => {
      const response = await app.inject({ method: "GET", url: "/api/posts", headers: bearer(session) });
      return (response.json().items as ListedPost[]).find((item) => item.id === post.id)?.viewerReaction;
    };
    expect(await mine(other)).toBe("dislike");
    expect(await mine(reader)).toBeNull();
    expect((await detail(post.id, reader)).viewerReaction).toBeNull();
    expect((await detail(post.id, other)).viewerReaction).toBe("dislike");
    expect((await listed(post.id))?.viewerReaction).toBeNull();
    await write("PUT", "/api/posts/likes", { postId: post.id }, reader);
    expect(await mine(reader)).toBe("like");
    expect(await mine(other)).toBe("dislike");
  });

  it("counts views within a flush (about a second), and shows them once the cached answer expires", async () => {
    const post = await createPost(app, admin, topic);
    await detail(post.id);
    await detail(post.id, reader);
    expect((await listed(post.id))?.isFeatured).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    // A view changes no cached page at once (or pages with steady readers would never stay cached).
    expect((await detail(post.id)).numViews).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, MAX_AGE_MS));
    expect((await detail(post.id)).numViews).toBe(2);
  });
});

describe("views buffered when the server stops", () => {
  it("are written on close, not lost", async () => {
    const database = await pgliteTarget.open();
    const app = await buildTestApp(keepOpen(database));
    const author = await signUp(app);
    await makeAdmin(app, author.id);
    const post = await createPost(app, author, (await createCategory(app, author)).title);
    for (const remoteAddress of ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) {
      await app.inject({ method: "GET", url: `/api/posts/${post.id}`, remoteAddress });
    }
    await app.close();
    const [row] = await database.db.select({ numViews: posts.numViews }).from(posts).where(eq(posts.id, post.id));
    expect(row?.numViews).toBe(3);
    await database.close();
  });
});

describe.runIf(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL)(
  "two instances on one PostgreSQL and Redis",
  () => {
    let one: App;
    let two: App;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      const scratch = await scratchPostgres(process.env.TEST_DATABASE_URL as string, "penchain_cache");
      drop = scratch.drop;
      const instances: App[] = [];
      for (let i = 0; i < 2; i++) {
        const database = await openDatabase({ url: scratch.url });
        await database.migrate();
        instances.push(await buildTestApp(database, { env: { REDIS_URL: process.env.TEST_REDIS_URL as string } }));
      }
      [one, two] = instances as [App, App];
    });
    afterAll(async () => {
      await one?.close();
      await two?.close();
      await drop?.();
    });

    it("see each other's writes in their next reads", async () => {
      const admin = await signUp(one);
      await makeAdmin(one, admin.id);
      const topic = (await createCategory(one, admin)).title;
      const titles = async (app: App) =>
        ((await app.inject({ method: "GET", url: "/api/posts" })).json().items as ListedPost[]).map((p) => p.title);
      expect(await titles(one)).toEqual([]);
      expect(await titles(two)).toEqual([]);

      await createPost(two, admin, topic, { title: "Written on two" });
      await expect.poll(() => titles(one), { timeout: 1000, interval: 20 }).toEqual(["Written on two"]);
      const post = (await one.inject({ method: "GET", url: "/api/posts" })).json().items[0] as ListedPost;
      await one.inject({
        method: "PUT",
        url: "/api/posts/likes",
        payload: { postId: post.id },
        headers: bearer(admin),
      });
      await expect
        .poll(async () => (await two.inject({ method: "GET", url: `/api/posts/${post.id}` })).json().likesCount, {
          timeout: 1000,
          interval: 20,
        })
        .toBe(1);
    });
  },
);
