import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { DEFAULT_RATE_LIMITS } from "../../../src/server/plugins/rate-limits.ts";
import { buildTestApp, eventually, twoInstances } from "../../support/app.ts";
import { createCategory, createPost, likePost } from "../../support/content.ts";
import { databaseTargets, pgliteTarget } from "../../support/databases.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

type Session = Awaited<ReturnType<typeof signUp>>;
const profile = (user: Session, firstName: string) => ({
  firstName,
  lastName: user.lastName,
  email: user.email,
  bio: "Writes about compilers.",
});

/** Reads a page and says whether the cache answered it (by the cache's own counters, not by timing). */
async function cachedRead(app: App, url: string) {
  const before = app.readCache.stats();
  const response = await app.inject({ method: "GET", url });
  const after = app.readCache.stats();
  return { body: response.json(), hit: after.hits > before.hits && after.misses === before.misses };
}

describe.each(databaseTargets)("a write drops only the cached reads it changed, on $name", (target) => {
  let app: App;
  let author: Session;
  let other: Session;
  let reader: Session;
  let mine: { id: string };
  let theirs: { id: string };
  let mineList: string;
  let theirsList: string;
  beforeAll(async () => {
    app = await buildTestApp(await target.open());
    author = await signUp(app);
    await makeAdmin(app, author.id);
    other = await signUp(app);
    reader = await signUp(app);
    const [a, b] = [await createCategory(app, author), await createCategory(app, author)];
    mine = await createPost(app, author, a.title);
    theirs = await createPost(app, other, b.title);
    mineList = `/api/posts?category=${encodeURIComponent(a.title)}`;
    theirsList = `/api/posts?category=${encodeURIComponent(b.title)}`;
  });
  afterAll(() => app.close());

  const warm = async () => {
    for (const url of [mineList, theirsList, `/api/posts/${mine.id}`, `/api/posts/${theirs.id}`]) {
      await app.inject({ method: "GET", url });
      await app.inject({ method: "GET", url, headers: bearer(other) });
    }
  };
  /** What a signed-in reader (not the writer) is answered, from their own cached copy when it is still right. */
  const signedInRead = async (url: string) => (await app.inject({ method: "GET", url, headers: bearer(other) })).json();
  const write = (method: "PUT" | "POST" | "DELETE", url: string, session: Session, payload?: object) =>
    app.inject({ method, url, payload, headers: bearer(session) });

  it("a like changes the liked post's pages and leaves the others cached", async () => {
    await warm();
    expect((await write("PUT", "/api/posts/likes", reader, { postId: mine.id })).statusCode).toBe(200);
    const detail = await cachedRead(app, `/api/posts/${mine.id}`);
    expect(detail).toMatchObject({ hit: false, body: { likesCount: 1 } });
    expect((await cachedRead(app, mineList)).body.items[0].likesCount).toBe(1);
    expect((await signedInRead(mineList)).items[0].likesCount).toBe(1);
    expect((await signedInRead(`/api/posts/${mine.id}`)).likesCount).toBe(1);
    expect((await cachedRead(app, theirsList)).hit).toBe(true);
    expect((await cachedRead(app, `/api/posts/${theirs.id}`)).hit).toBe(true);
  });

  it("a comment, its edit and its deletion change the post's pages only", async () => {
    await warm();
    const comment = await write("POST", "/api/comments", reader, { postId: mine.id, description: "First!" });
    expect(comment.statusCode).toBe(201);
    expect((await cachedRead(app, `/api/posts/${mine.id}`)).body.commentsCount).toBe(1);
    expect((await signedInRead(mineList)).items[0].commentsCount).toBe(1);
    expect((await signedInRead(`/api/posts/${mine.id}`)).comments[0].description).toBe("First!");
    expect((await cachedRead(app, theirsList)).hit).toBe(true);
    await write("PUT", `/api/comments/${comment.json().id}`, reader, { description: "Edited" });
    expect((await cachedRead(app, `/api/posts/${mine.id}`)).body.comments[0].description).toBe("Edited");
    expect((await cachedRead(app, `/api/posts/${theirs.id}`)).hit).toBe(true);
    await write("DELETE", `/api/comments/${comment.json().id}`, reader);
    expect((await cachedRead(app, mineList)).body.items[0].commentsCount).toBe(0);
    expect((await cachedRead(app, theirsList)).hit).toBe(true);
  });

  it("following changes no cached read; a rename changes the pages showing that author only", async () => {
    await warm();
    const dropped = app.readCache.stats().invalidated;
    expect((await write("PUT", "/api/users/follow", reader, { followId: author.id })).statusCode).toBe(200);
    expect((await write("PUT", "/api/users/unfollow", reader, { unFollowId: author.id })).statusCode).toBe(200);
    expect(app.readCache.stats().invalidated).toBe(dropped);
    expect((await cachedRead(app, mineList)).hit).toBe(true);

    expect((await write("PUT", "/api/users", author, profile(author, "Renamed"))).statusCode).toBe(200);
    expect((await cachedRead(app, `/api/posts/${mine.id}`)).body.user.firstName).toBe("Renamed");
    expect((await cachedRead(app, mineList)).body.items[0].user.firstName).toBe("Renamed");
    expect((await cachedRead(app, theirsList)).hit).toBe(true);
  });

  it("a post's edit, a category's rename and a post's deletion show in the next reads", async () => {
    await warm();
    const category = (await cachedRead(app, mineList)).body.items[0].category as string;
    const edited = await app.inject({
      method: "PUT",
      url: `/api/posts/${mine.id}`,
      headers: bearer(author),
      payload: { title: "Edited title", description: "<p>Edited</p>", category },
    });
    expect(edited.statusCode).toBe(200);
    expect((await cachedRead(app, mineList)).body.items[0].title).toBe("Edited title");
    expect((await signedInRead(`/api/posts/${mine.id}`)).title).toBe("Edited title");

    await warm();
    const categories = (await app.inject({ method: "GET", url: "/api/category?limit=50" })).json().items;
    const { id } = categories.find((each: { title: string }) => each.title === category);
    const renamed = `${category} renamed`;
    expect((await write("PUT", `/api/category/${id}`, author, { title: renamed })).statusCode).toBe(200);
    mineList = `/api/posts?category=${encodeURIComponent(renamed)}`;
    expect((await cachedRead(app, `/api/posts/${mine.id}`)).body.category).toBe(renamed);
    expect((await signedInRead(mineList)).items[0].category).toBe(renamed);

    const doomed = await createPost(app, author, renamed);
    await warm();
    expect((await write("DELETE", `/api/posts/${doomed.id}`, author)).statusCode).toBe(200);
    expect((await cachedRead(app, mineList)).body.items.map((post: { id: string }) => post.id)).not.toContain(
      doomed.id,
    );
    expect((await signedInRead(mineList)).items.map((post: { id: string }) => post.id)).not.toContain(doomed.id);
    expect((await app.inject({ method: "GET", url: `/api/posts/${doomed.id}` })).statusCode).toBe(404);
  });

  it("a new post changes every list, and a signed-in reader's own reaction shows in their next read", async () => {
    await warm();
    await write("PUT", "/api/posts/dislikes", reader, { postId: theirs.id });
    const own = await app.inject({ method: "GET", url: theirsList, headers: bearer(reader) });
    expect(own.json().items[0].viewerReaction).toBe("dislike");
    expect((await cachedRead(app, `/api/posts/${mine.id}`)).hit).toBe(true);
    const fresh = await createPost(app, other, (await cachedRead(app, theirsList)).body.items[0].category);
    expect((await cachedRead(app, theirsList)).body.items.map((post: { id: string }) => post.id)).toContain(fresh.id);
  });
});

describe("limits on writes anyone signed in can repeat (production defaults)", () => {
  it("limits follows and profile updates per user", async () => {
    const app = await buildTestApp(await pgliteTarget.open(), { rateLimits: {} });
    const [user, author] = [await signUp(app), await signUp(app)];
    const follows: number[] = [];
    for (let index = 0; index <= DEFAULT_RATE_LIMITS.follows.max; index++) {
      const url = index % 2 ? "/api/users/unfollow" : "/api/users/follow";
      const payload = index % 2 ? { unFollowId: author.id } : { followId: author.id };
      follows.push((await app.inject({ method: "PUT", url, payload, headers: bearer(user) })).statusCode);
    }
    expect(follows.at(-1)).toBe(429);
    expect(follows.slice(0, -1).every((code) => code === 200)).toBe(true);
    const updates: number[] = [];
    for (let index = 0; index <= DEFAULT_RATE_LIMITS.accountChanges.max; index++) {
      const payload = profile(user, `Name${index}`);
      updates.push((await app.inject({ method: "PUT", url: "/api/users", payload, headers: bearer(user) })).statusCode);
    }
    expect(updates.at(-1)).toBe(429);
    expect(updates.slice(0, -1).every((code) => code === 200)).toBe(true);
    await app.close();
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL || !process.env.TEST_DATABASE_URL)(
  "two instances on one PostgreSQL, told through Redis",
  () => {
    it("drops the liked post's pages on the other instance and keeps its unrelated ones", async () => {
      const target = databaseTargets.find((candidate) => candidate.name === "postgres");
      if (!target) throw new Error("no PostgreSQL");
      const { one, two, close } = await twoInstances(target.open);
      const admin = await signUp(one);
      await makeAdmin(one, admin.id);
      const topic = (await createCategory(one, admin)).title;
      const [liked, untouched] = [await createPost(one, admin, topic), await createPost(one, admin, topic)];
      await two.inject({ method: "GET", url: `/api/posts/${liked.id}` });
      await two.inject({ method: "GET", url: `/api/posts/${untouched.id}` });
      const reader = await signUp(one);
      await likePost(one, reader, liked.id);
      const likes = await eventually(
        async () => (await two.inject({ method: "GET", url: `/api/posts/${liked.id}` })).json().likesCount,
        1,
      );
      expect(likes).toBe(1);
      expect((await cachedRead(two, `/api/posts/${untouched.id}`)).hit).toBe(true);
      await close();
    });
  },
);
