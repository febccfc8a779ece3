import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { postDetailSchema, postSchema, TX_HASH_MESSAGE } from "#shared/schemas/posts.ts";
import type { App } from "../../../src/server/app.ts";
import { posts } from "../../../src/server/db/schema.ts";
import { buildTestApp } from "../../support/app.ts";
import { createCategory, createPost, submitPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { jpegWithExif } from "../../support/images.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

type Session = Awaited<ReturnType<typeof signUp>>;

describe.each(databaseTargets)("posts on $name", (target) => {
  let app: App;
  let admin: Session;
  let author: Session;
  let reader: Session;
  let topic: string;
  beforeAll(async () => {
    app = await buildTestApp(await target.open());
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
    [author, reader] = [await signUp(app, { firstName: "Author" }), await signUp(app)];
    topic = (await createCategory(app, admin, "General")).title;
  });
  afterAll(() => app.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  const get = (url: string, session?: { token: string }, headers: Record<string, string> = {}) =>
    app.inject({ method: "GET", url, headers: { ...headers, ...(session ? bearer(session) : {}) } });

  describe("creating", () => {
    it("stores a post with a sanitised description and a re-encoded cover", async () => {
      const response = await submitPost(
        app,
        author,
        {
          title: "Hello chain",
          description: '<h1>Hi</h1><p onclick="x()">text<script>alert(1)</script></p>',
          category: "general",
          isFeatured: "false",
        },
        { data: await jpegWithExif(2400, 1200), filename: "cover.png", type: "image/png" },
      );
      expect(response.statusCode).toBe(201);
      const post = postSchema.parse(response.json());
      expect(post).toMatchObject({
        title: "Hello chain",
        description: "<h1>Hi</h1><p>text</p>",
        category: "General",
        isFeatured: false,
        transectionHash: null,
        user: { id: author.id, firstName: "Author" },
        likesCount: 0,
        disLikesCount: 0,
        viewerReaction: null,
        numViews: 0,
        commentsCount: 0,
      });
      const cover = await get(post.image as string);
      const meta = await sharp(cover.rawPayload).metadata();
      expect(meta).toMatchObject({ format: "webp", width: 1600, height: 800 });
      expect(meta.exif).toBeUndefined();
    });

    it.each([
      ["title", "Title is required"],
      ["description", "Description is required"],
      ["category", "Category is required"],
      ["isFeatured", "Featured is required"],
    ])("refuses a missing %s with the spec's message", async (field, message) => {
      const fields: Record<string, string> = {
        title: "T",
        description: "<p>D</p>",
        category: topic,
        isFeatured: "false",
      };
      delete fields[field];
      const response = await submitPost(app, author, fields);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(message);
    });

    it("treats an editor-empty description as missing", async () => {
      const response = await submitPost(app, author, {
        title: "T",
        description: "<p><br></p><script>x</script>",
        category: topic,
        isFeatured: "false",
      });
      expect(response.json().message).toBe("Description is required");
    });

    it.each(["", "0x1234", `0x${"z".repeat(64)}`, `${"a".repeat(66)}`])(
      "asks a featured post for a valid hash, not %j",
      async (hash) => {
        const response = await submitPost(app, author, {
          title: "T",
          description: "<p>D</p>",
          category: topic,
          isFeatured: "true",
          transectionHash: hash,
        });
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toBe(TX_HASH_MESSAGE);
      },
    );

    it("refuses an unknown category, a non-image cover, and visitors", async () => {
      expect(
        (await submitPost(app, author, { title: "T", description: "<p>D</p>", category: "Nope", isFeatured: "false" }))
          .statusCode,
      ).toBe(400);
      const text = await submitPost(
        app,
        author,
        { title: "T", description: "<p>D</p>", category: topic, isFeatured: "false" },
        { data: Buffer.from("GIF89a not really"), filename: "x.jpg", type: "image/jpeg" },
      );
      expect(text.statusCode).toBe(415);
      expect((await app.inject({ method: "POST", url: "/api/posts", payload: { title: "T" } })).statusCode).toBe(401);
    });
  });

  it("counts the author's posts on the profile and in the admin list", async () => {
    const writer = await signUp(app);
    await createPost(app, writer, topic);
    await createPost(app, writer, topic);
    const profile = (await get(`/api/users/profile/${writer.id}`, writer)).json();
    expect(profile).toMatchObject({ postCount: 2, accountType: "Starter Account" });
    expect(profile.posts).toHaveLength(2);
    const listed = (await get("/api/users?limit=100", admin))
      .json()
      .items.find((item: { id: string }) => item.id === writer.id);
    expect(listed.postCount).toBe(2);
  });

  describe("listing", () => {
    it("pages newest first with a cursor, filtered by category title and by author", async () => {
      const own = await createCategory(app, admin);
      const ids: string[] = [];
      for (let index = 0; index < 5; index++)
        ids.push((await createPost(app, author, own.title, { title: `P${index}` })).id);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await get(
          `/api/posts?category=${encodeURIComponent(own.title.toUpperCase())}&limit=2${cursor ? `&cursor=${cursor}` : ""}`,
        );
        expect(page.statusCode).toBe(200);
        seen.push(...page.json().items.map((post: { id: string }) => post.id));
        cursor = page.json().nextCursor;
      } while (cursor);
      expect(seen).toEqual([...ids].reverse());

      const byAuthor = (await get(`/api/posts?author=${reader.id}`)).json();
      expect(byAuthor.items).toEqual([]);
      expect((await get("/api/posts?category=")).json().items.length).toBeGreaterThan(0);
      expect((await get("/api/posts?category=No%20such")).json()).toEqual({ items: [], nextCursor: null });
    });
  });

  describe("reading", () => {
    it("adds the first page of comments, newest first, and pages the rest", async () => {
      const post = await createPost(app, author, topic);
      for (let index = 0; index < 23; index++) {
        await app.inject({
          method: "POST",
          url: "/api/comments",
          payload: { postId: post.id, description: `c${index}` },
          headers: bearer(reader),
        });
      }
      const detail = postDetailSchema.parse((await get(`/api/posts/${post.id}`)).json());
      expect(detail.commentsCount).toBe(23);
      expect(detail.comments).toHaveLength(20);
      expect(detail.comments[0]?.description).toBe("c22");
      const rest = (await get(`/api/posts/${post.id}/comments?cursor=${detail.commentsNextCursor}`)).json();
      expect(rest.items.map((comment: { description: string }) => comment.description)).toEqual(["c2", "c1", "c0"]);
      expect(rest.nextCursor).toBeNull();
    });

    it("counts a reader once an hour, never the author, and anonymous readers by address alone", async () => {
      const post = await createPost(app, author, topic);
      // Views are written in batches (about a second apart): flush, as the timer would, and read the table (a view
      // changes no cached answer at once).
      const views = async () => {
        await app.views.flush();
        const [row] = await app.db.select({ views: posts.numViews }).from(posts).where(eq(posts.id, post.id));
        return row?.views;
      };
      await get(`/api/posts/${post.id}`, reader);
      await get(`/api/posts/${post.id}`, reader);
      expect(await views()).toBe(1);
      // A new browser name each time is still the same reader.
      for (const agent of ["browser-a", "browser-a", "browser-b", "curl/8"]) {
        await get(`/api/posts/${post.id}`, undefined, { "user-agent": agent });
      }
      expect(await views()).toBe(2);
      await app.inject({ method: "GET", url: `/api/posts/${post.id}`, remoteAddress: "203.0.113.9" });
      expect(await views()).toBe(3);
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61 * 60 * 1000 });
      await get(`/api/posts/${post.id}`, reader);
      expect(await views()).toBe(4);
    });

    it("answers 404 for an unknown post", async () => {
      expect((await get("/api/posts/00000000-0000-4000-8000-000000000000")).statusCode).toBe(404);
    });
  });

  describe("editing and deleting", () => {
    it("lets only the author edit, changing only title, description and category", async () => {
      const post = await createPost(app, author, topic);
      const other = await createCategory(app, admin);
      const body = {
        id: post.id,
        title: "Edited",
        description: "<p>new</p><iframe></iframe>",
        category: other.title,
        isFeatured: true,
        transectionHash: "0xabc",
        user: reader.id,
      };
      expect(
        (await app.inject({ method: "PUT", url: `/api/posts/${post.id}`, payload: body, headers: bearer(reader) }))
          .statusCode,
      ).toBe(403);
      const edited = await app.inject({
        method: "PUT",
        url: `/api/posts/${post.id}`,
        payload: body,
        headers: bearer(author),
      });
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toMatchObject({
        title: "Edited",
        description: "<p>new</p>",
        category: other.title,
        isFeatured: false,
        user: { id: author.id },
      });
    });

    it("lets only the author delete; comments, reactions and the cover go with the post", async () => {
      const created = await submitPost(
        app,
        author,
        { title: "Bye", description: "<p>x</p>", category: topic, isFeatured: "false" },
        { data: await jpegWithExif(), filename: "a.jpg", type: "image/jpeg" },
      );
      const post = created.json();
      const comment = (
        await app.inject({
          method: "POST",
          url: "/api/comments",
          payload: { postId: post.id, description: "c" },
          headers: bearer(reader),
        })
      ).json();
      await app.inject({
        method: "PUT",
        url: "/api/posts/likes",
        payload: { postId: post.id },
        headers: bearer(reader),
      });
      expect(
        (await app.inject({ method: "DELETE", url: `/api/posts/${post.id}`, headers: bearer(admin) })).statusCode,
      ).toBe(403);
      expect(
        (await app.inject({ method: "DELETE", url: `/api/posts/${post.id}`, headers: bearer(author) })).statusCode,
      ).toBe(200);
      expect((await get(`/api/posts/${post.id}`)).statusCode).toBe(404);
      expect((await get(`/api/comments/${comment.id}`, reader)).statusCode).toBe(404);
      expect((await get(post.image)).statusCode).toBe(404);
    });
  });

  describe("reactions", () => {
    const like = (session: { token: string }, postId: string) =>
      app.inject({ method: "PUT", url: "/api/posts/likes", payload: { postId }, headers: bearer(session) });
    const dislike = (session: { token: string }, postId: string) =>
      app.inject({ method: "PUT", url: "/api/posts/dislikes", payload: { postId }, headers: bearer(session) });

    it("are exclusive and toggle", async () => {
      const post = await createPost(app, author, topic);
      expect((await like(reader, post.id)).json()).toMatchObject({
        likesCount: 1,
        disLikesCount: 0,
        viewerReaction: "like",
      });
      expect((await dislike(reader, post.id)).json()).toMatchObject({
        likesCount: 0,
        disLikesCount: 1,
        viewerReaction: "dislike",
      });
      expect((await dislike(reader, post.id)).json()).toMatchObject({
        likesCount: 0,
        disLikesCount: 0,
        viewerReaction: null,
      });
      expect((await like(reader, post.id)).json()).toMatchObject({ likesCount: 1, viewerReaction: "like" });
      expect((await like(reader, post.id)).json()).toMatchObject({ likesCount: 0, viewerReaction: null });
      const listed = (await get(`/api/posts?author=${author.id}&limit=100`, reader))
        .json()
        .items.find((item: { id: string }) => item.id === post.id);
      expect(listed.viewerReaction).toBeNull();
      expect((await like(reader, "00000000-0000-4000-8000-000000000000")).statusCode).toBe(404);
    });

    it("count 50 parallel likes exactly", async () => {
      const post = await createPost(app, author, topic);
      const fans = await Promise.all(Array.from({ length: 50 }, () => signUp(app)));
      const results = await Promise.all(fans.map((fan) => like(fan, post.id)));
      // Each refusal with its answer, should one come.
      const refused = results.filter((result) => result.statusCode !== 200);
      expect(refused.map((result) => `${result.statusCode} ${result.body}`)).toEqual([]);
      expect((await get(`/api/posts/${post.id}`)).json().likesCount).toBe(50);
    }, 60_000);

    it("stay consistent under one user's 20 parallel toggles", async () => {
      const post = await createPost(app, author, topic);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, index) => (index % 3 === 0 ? dislike(reader, post.id) : like(reader, post.id))),
      );
      // Each refusal with its answer, should one come.
      const refused = results.filter((result) => result.statusCode !== 200);
      expect(refused.map((result) => `${result.statusCode} ${result.body}`)).toEqual([]);
      const final = (await get(`/api/posts/${post.id}`, reader)).json();
      const expectedCounts: Record<string, number[]> = { like: [1, 0], dislike: [0, 1], none: [0, 0] };
      const expected = expectedCounts[String(final.viewerReaction ?? "none")];
      expect([final.likesCount, final.disLikesCount]).toEqual(expected);
    }, 60_000);
  });

  describe("comments", () => {
    it("are plain text; only the author edits; the author or an admin deletes", async () => {
      const post = await createPost(app, author, topic);
      const create = await app.inject({
        method: "POST",
        url: "/api/comments",
        payload: { postId: post.id, description: "<b>hi</b>" },
        headers: bearer(reader),
      });
      expect(create.statusCode).toBe(201);
      const comment = create.json();
      expect(comment).toMatchObject({ description: "<b>hi</b>", postId: post.id, user: { id: reader.id } });

      const edit = (session: { token: string }) =>
        app.inject({
          method: "PUT",
          url: `/api/comments/${comment.id}`,
          payload: { description: "edited" },
          headers: bearer(session),
        });
      expect((await edit(author)).statusCode).toBe(403);
      expect((await edit(admin)).statusCode).toBe(403);
      expect((await edit(reader)).json().description).toBe("edited");
      expect(
        (await app.inject({ method: "DELETE", url: `/api/comments/${comment.id}`, headers: bearer(author) }))
          .statusCode,
      ).toBe(403);
      expect(
        (await app.inject({ method: "DELETE", url: `/api/comments/${comment.id}`, headers: bearer(admin) })).statusCode,
      ).toBe(200);
    });

    it("give the spec's message and need an existing post", async () => {
      const post = await createPost(app, author, topic);
      const blank = await app.inject({
        method: "POST",
        url: "/api/comments",
        payload: { postId: post.id, description: " " },
        headers: bearer(reader),
      });
      expect(blank.json().message).toBe("Description is required");
      const orphan = await app.inject({
        method: "POST",
        url: "/api/comments",
        payload: { postId: "00000000-0000-4000-8000-000000000000", description: "x" },
        headers: bearer(reader),
      });
      expect(orphan.statusCode).toBe(404);
    });
  });
});
