import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CANNOT_COMMENT, CANNOT_FOLLOW, CANNOT_MESSAGE, CANNOT_TIP } from "#shared/schemas/blocks.ts";
import type { App } from "../../../src/server/app.ts";
import { mailOutbox } from "../../../src/server/db/schema.ts";
import { buildTestApp } from "../../support/app.ts";
import { createCategory, createPost, likePost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

type Session = Awaited<ReturnType<typeof signUp>>;
const TX = `0x${"ab".repeat(32)}`;

describe.each(databaseTargets)("blocks, mutes and first-time commenters on $name", (target) => {
  let app: App;
  let writer: Session;
  let pest: Session;
  let reader: Session;
  let category: string;
  beforeAll(async () => {
    app = await buildTestApp(await target.open());
    const admin = await signUp(app);
    await makeAdmin(app, admin.id);
    category = (await createCategory(app, admin)).title;
    [writer, pest, reader] = [await signUp(app), await signUp(app), await signUp(app)];
  }, 60_000);
  afterAll(() => app.close());

  function call(method: "GET" | "PUT" | "POST" | "DELETE", url: string, who: Session | null, payload?: object) {
    return app.inject({ method, url, payload, headers: who ? bearer(who) : {} });
  }
  const comment = (who: Session, postId: string, description: string) =>
    call("POST", "/api/comments", who, { postId, description });
  const commentTexts = async (postId: string) =>
    (await call("GET", `/api/posts/${postId}/comments`, null))
      .json()
      .items.map((c: { description: string }) => c.description);
  const follow = (who: Session, id: string) => call("PUT", "/api/users/follow", who, { followId: id });
  const followers = async (id: string) =>
    (await call("GET", `/api/users/profile/${id}`, reader)).json().followersCount as number;
  const feed = async (who: Session) =>
    (await call("GET", "/api/posts?following=true", who)).json().items.map((post: { title: string }) => post.title);
  const notifications = async (who: Session) =>
    (await call("GET", "/api/notifications", who)).json().items as { kind: string; post: { title: string } | null }[];
  const mailCount = async (email: string) =>
    (await app.db.select().from(mailOutbox).where(sql`lower(${mailOutbox.to}) = lower(${email})`)).length;

  it("a block stops following, commenting, messaging and tipping, and hides the blocked's comments on the blocker's posts", async () => {
    const post = await createPost(app, writer, category, { title: "Quiet please" });
    const elsewhere = await createPost(app, reader, category, { title: "Someone else's" });
    expect((await comment(pest, post.id, "first rude remark")).statusCode).toBe(201);
    expect((await comment(pest, elsewhere.id, "a remark elsewhere")).statusCode).toBe(201);
    expect((await follow(pest, writer.id)).statusCode).toBe(200);
    const before = await followers(writer.id);
    expect(await commentTexts(post.id)).toContain("first rude remark");

    const blocked = await call("POST", `/api/users/block/${pest.id}`, writer);
    expect(blocked.statusCode).toBe(200);
    expect(blocked.json()).toEqual({ blocking: true, muting: false });
    expect((await call("POST", `/api/users/block/${writer.id}`, writer)).statusCode).toBe(400);

    // Gone from the blocker's post for everyone (the cached list and count too), still on the other author's post.
    expect(await commentTexts(post.id)).not.toContain("first rude remark");
    expect((await call("GET", `/api/posts/${post.id}`, null)).json().commentsCount).toBe(0);
    expect(await commentTexts(elsewhere.id)).toContain("a remark elsewhere");
    expect(await followers(writer.id)).toBe(before - 1);

    const refused = await follow(pest, writer.id);
    expect([refused.statusCode, refused.json().message]).toEqual([403, CANNOT_FOLLOW]);
    // The blocker is told why, and what to do; the blocked is not told of the block.
    const ownBlock = await follow(writer, pest.id);
    expect([ownBlock.statusCode, ownBlock.json().message]).toEqual([
      403,
      "You cannot follow this person because you blocked them. Unblock them first.",
    ]);
    const noComment = await comment(pest, post.id, "another try");
    expect([noComment.statusCode, noComment.json().message]).toEqual([403, CANNOT_COMMENT]);
    const byId = await call("POST", "/api/email", pest, { toId: writer.id, subject: "Hello", message: "Hear me out" });
    expect([byId.statusCode, byId.json().message]).toEqual([403, CANNOT_MESSAGE]);
    // Written to an address, the answer is the one a stranger's address gets, and nothing is sent.
    const mailsBefore = await mailCount(writer.email);
    const byAddress = await call("POST", "/api/email", pest, { to: writer.email, subject: "Hi", message: "Hear me" });
    expect(byAddress.statusCode).toBe(200);
    expect(await mailCount(writer.email)).toBe(mailsBefore);
    const tip = await call("POST", `/api/users/tips/${writer.id}`, pest, { txHash: TX });
    expect([tip.statusCode, tip.json().message]).toEqual([403, CANNOT_TIP]);
    // The blocker cannot message the one they blocked either.
    expect((await call("POST", "/api/email", writer, { toId: pest.id, subject: "x", message: "y" })).statusCode).toBe(
      403,
    );

    const relations = (await call("GET", "/api/me/relations", writer)).json();
    expect(relations.blocked.map((user: { id: string }) => user.id)).toEqual([pest.id]);
    // Nobody is told: the blocked person's own list is empty.
    expect((await call("GET", "/api/me/relations", pest)).json().blocked).toEqual([]);

    expect((await call("DELETE", `/api/users/block/${pest.id}`, writer)).json()).toEqual({
      blocking: false,
      muting: false,
    });
    expect(await commentTexts(post.id)).toContain("first rude remark");
    expect((await call("GET", `/api/posts/${post.id}`, null)).json().commentsCount).toBe(1);
    expect((await comment(pest, post.id, "sorry")).statusCode).toBe(201);
  });

  it("a mute takes someone out of the muter's feed and notifications, and changes nothing for anyone else", async () => {
    const loud = await signUp(app);
    const fan = await signUp(app);
    await follow(fan, loud.id);
    await follow(reader, loud.id);
    await createPost(app, loud, category, { title: "Loud before the mute" });
    expect(await feed(fan)).toContain("Loud before the mute");

    expect((await call("POST", `/api/users/mute/${loud.id}`, fan)).json()).toEqual({ blocking: false, muting: true });
    await createPost(app, loud, category, { title: "Loud after the mute" });
    expect(await feed(fan)).toEqual([]);
    expect(await feed(reader)).toEqual(["Loud after the mute", "Loud before the mute"]);
    expect((await notifications(fan)).filter((n) => n.kind === "new_post")).toEqual([]);
    expect((await notifications(reader)).filter((n) => n.kind === "new_post")).toHaveLength(2);

    // The muted person's like of the muter's post tells them nothing.
    const fansPost = await createPost(app, fan, category, { title: "Fan's own" });
    await likePost(app, loud, fansPost.id);
    expect((await notifications(fan)).filter((n) => n.kind === "like")).toEqual([]);

    await call("DELETE", `/api/users/mute/${loud.id}`, fan);
    expect(await feed(fan)).toEqual(["Loud after the mute", "Loud before the mute"]);
  });

  it("muted words take posts out of the feed and notifications about them out of the list", async () => {
    const author = await signUp(app);
    const follower = await signUp(app);
    await follow(follower, author.id);
    await createPost(app, author, category, { title: "All about Crypto Casinos" });
    await createPost(app, author, category, { title: "A walk in the park" });
    const saved = await call("PUT", "/api/me/muted-words", follower, {
      words: ["  CASINO ", "casino", "x".repeat(51)],
    });
    expect(saved.statusCode).toBe(400);
    const ok = await call("PUT", "/api/me/muted-words", follower, { words: ["  CASINO ", "casino"] });
    expect(ok.json().words).toEqual(["casino"]);
    expect(await feed(follower)).toEqual(["A walk in the park"]);
    // Told before the word was muted or after, a notification about such a post is not shown.
    await createPost(app, author, category, { title: "Casino night, again" });
    expect((await notifications(follower)).map((n) => n.post?.title)).toEqual(["A walk in the park"]);
    // Hostile words are plain text, matched literally: no pattern, no SQL.
    const odd = await call("PUT", "/api/me/muted-words", follower, { words: ["%_'; drop table users; --"] });
    expect(odd.statusCode).toBe(200);
    expect(await feed(follower)).toEqual(["Casino night, again", "A walk in the park", "All about Crypto Casinos"]);
  });

  it("holds a first-time commenter's comment until the author approves it; declining deletes it", async () => {
    const author = await signUp(app);
    const newcomer = await signUp(app);
    const stranger = await signUp(app);
    const post = await createPost(app, author, category, { title: "Held comments" });
    expect((await call("GET", "/api/comments/settings", author)).json()).toEqual({ holdFirstComments: false });
    expect((await call("PUT", "/api/comments/settings", author, { holdFirstComments: true })).statusCode).toBe(200);

    const first = await comment(newcomer, post.id, "Hello, first time here");
    expect(first.statusCode).toBe(201);
    expect(first.json().waitingForReview).toBe(true);
    expect(await commentTexts(post.id)).toEqual([]);
    // Nobody but the post's author sees what waits for them.
    expect((await call("GET", `/api/comments/waiting?postId=${post.id}`, stranger)).json().items).toEqual([]);
    expect((await call("POST", `/api/comments/${first.json().id}/approve`, stranger)).statusCode).toBe(404);
    const waiting = (await call("GET", `/api/comments/waiting?postId=${post.id}`, author)).json().items;
    expect(waiting.map((c: { description: string }) => c.description)).toEqual(["Hello, first time here"]);
    // It waits for the author, not the moderators.
    const queue = (await call("GET", "/api/moderation/reports?status=open", author)).statusCode;
    expect(queue).toBe(403);

    expect((await call("POST", `/api/comments/${first.json().id}/approve`, author)).json()).toEqual({ approved: true });
    expect(await commentTexts(post.id)).toEqual(["Hello, first time here"]);
    // Once one was shown, the next goes straight through.
    const second = await comment(newcomer, post.id, "Back again");
    expect(second.json().waitingForReview).toBe(false);
    // The author's own comments never wait.
    expect((await comment(author, post.id, "Thanks")).json().waitingForReview).toBe(false);

    const spam = await comment(stranger, post.id, "Buy my stuff");
    expect(spam.json().waitingForReview).toBe(true);
    expect((await call("POST", `/api/comments/${spam.json().id}/decline`, author)).json()).toEqual({ approved: false });
    expect((await call("GET", `/api/comments/${spam.json().id}`, stranger)).statusCode).toBe(404);
    expect(await commentTexts(post.id)).toEqual(["Thanks", "Back again", "Hello, first time here"]);
  });
});
