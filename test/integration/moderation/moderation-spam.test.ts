import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { posts, users } from "../../../src/server/db/schema.ts";
import { buildTestApp } from "../../support/app.ts";
import { createCategory, createPost, submitPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { bearer, buildRegistration, makeAdmin, signUp } from "../../support/users.ts";

type Session = Awaited<ReturnType<typeof signUp>>;

describe.each(databaseTargets)("spam defences for new accounts on $name", (target) => {
  let app: App;
  let admin: Session;
  let category: string;
  let post: { id: string };
  beforeAll(async () => {
    app = await buildTestApp(await target.open(), { env: { NEW_ACCOUNT_POSTS_PER_DAY: "3" } });
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
    category = (await createCategory(app, admin)).title;
    post = await createPost(app, admin, category, { title: "Comment here" });
  }, 60_000);
  afterAll(() => app.close());

  /** An account a day old with a verified address: no longer new. */
  const settle = (user: Session) =>
    app.db
      .update(users)
      .set({ isAccountVerified: true, createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) })
      .where(eq(users.id, user.id));
  const comment = (who: Session, description: string) =>
    app.inject({
      method: "POST",
      url: "/api/comments",
      headers: bearer(who),
      payload: { postId: post.id, description },
    });

  it("holds a new account's scheduled posts past the day's few until the day allows them", async () => {
    const fresh = await signUp(app);
    const inAMinute = new Date(Date.now() + 60_000).toISOString();
    const scheduled = [];
    for (let i = 0; i < 5; i++)
      scheduled.push(await createPost(app, fresh, category, { status: "scheduled", publishAt: inAMinute }));
    const settled = await signUp(app);
    await settle(settled);
    const trusted = await createPost(app, settled, category, { status: "scheduled", publishAt: inAMinute });
    // Their time comes, all at once (moved, rather than waited for).
    const ids = [...scheduled.map((post) => post.id), trusted.id];
    for (const id of ids)
      await app.db
        .update(posts)
        .set({ publishedAt: new Date(Date.now() - 1000) })
        .where(eq(posts.id, id));
    const published = await app.publisher.publishDue();
    expect(published).toContain(trusted.id);
    expect(published.filter((id) => id !== trusted.id)).toHaveLength(3);
    const held = await app.db.select().from(posts).where(inArray(posts.id, ids));
    const waiting = held.filter((post) => post.status === "scheduled");
    expect(waiting).toHaveLength(2);
    // Looked at again later, not at every check.
    for (const post of waiting) expect(post.publishedAt?.getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);
    expect(await app.publisher.publishDue()).toEqual([]);
  });

  it("keeps links out of a new account's comments, bio and name, and lets a settled account post them", async () => {
    const fresh = await signUp(app);
    for (const text of ["cheap pills at https://spam.example", "see www.spam.example now", "HTTP://SHOUT.example"]) {
      const refused = await comment(fresh, text);
      expect(refused.statusCode, text).toBe(400);
      expect(refused.json().issues[0]).toMatchObject({
        path: "description",
        message: expect.stringContaining("links"),
      });
    }
    expect((await comment(fresh, "No links, just words about http and www")).statusCode).toBe(201);
    const bio = await app.inject({
      method: "PUT",
      url: "/api/users/",
      headers: bearer(fresh),
      payload: {
        firstName: fresh.firstName,
        lastName: fresh.lastName,
        email: fresh.email,
        bio: "Visit https://me.example",
      },
    });
    expect(bio.statusCode).toBe(400);
    expect(bio.json().issues[0].path).toBe("bio");
    const named = await app.inject({
      method: "POST",
      url: "/api/users/register",
      payload: buildRegistration({ lastName: "www.buy-now.example" }),
    });
    expect(named.statusCode).toBe(400);
    expect(named.json().issues[0].path).toBe("lastName");

    await settle(fresh);
    expect((await comment(fresh, "My write-up: https://blog.example/post")).statusCode).toBe(201);
    expect((await comment(admin, "Admins may link: https://docs.example")).statusCode).toBe(201);
  });

  it("lets a new account publish a few posts a day, drafts aside, and a settled one as many as it likes", async () => {
    const fresh = await signUp(app);
    for (let index = 0; index < 3; index++) await createPost(app, fresh, category, { title: `Post ${index}` });
    const fourth = await submitPost(app, fresh, {
      title: "One too many",
      description: "<p>x</p>",
      category,
      isFeatured: "false",
    });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().message).toContain("3 posts a day");
    const draft = await createPost(app, fresh, category, { title: "Kept for later", status: "draft" });
    const publish = await app.inject({
      method: "PUT",
      url: `/api/posts/${draft.id}`,
      headers: bearer(fresh),
      payload: { title: "Kept for later", description: "<p>x</p>", category, status: "published" },
    });
    expect(publish.statusCode).toBe(429);
    await settle(fresh);
    expect(
      (await submitPost(app, fresh, { title: "Now trusted", description: "<p>x</p>", category, isFeatured: "false" }))
        .statusCode,
    ).toBe(201);
  });
});
