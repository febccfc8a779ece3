import { Person } from "@fedify/fedify/vocab";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { emailSubscriptions, federationQueue, remoteFollowers, users } from "../../../src/server/db/schema.ts";
import { eraseClosedAccounts } from "../../../src/server/services/leaving/closing.ts";
import { buildTestApp } from "../../support/app.ts";
import { createCategory, createPost, recordFeaturedFee } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { type Peer, startFederatingApp } from "../../support/fediverse.ts";
import { type SmtpServer, startSmtpServer } from "../../support/smtp.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

const DAY = 24 * 60 * 60_000;
type Session = Awaited<ReturnType<typeof signUp>>;

describe.each(databaseTargets)("closing an account on $name", (target) => {
  let app: App;
  let smtp: SmtpServer;
  let admin: Session;
  let category: string;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await buildTestApp(await target.open(), { env: { SMTP_URL: smtp.url } });
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
    category = (await createCategory(app, admin)).title;
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  const call = (
    method: "GET" | "POST" | "PUT" | "DELETE",
    url: string,
    session?: { token: string },
    payload?: object,
  ) => app.inject({ method, url, payload, headers: session ? bearer(session) : {} });
  const close = (session: Session, keepPosts: boolean, password = session.password) =>
    call("POST", "/api/users/close", session, { password, keepPosts });
  const login = (session: Session) =>
    call("POST", "/api/users/login", undefined, { email: session.email, password: session.password });
  const userRow = async (id: string) => (await app.db.select().from(users).where(eq(users.id, id)))[0];
  const mailsTo = (email: string) => smtp.received.filter((mail) => mail.to.includes(email));
  /** The job as it runs 15 days from now. */
  const eraseDue = () => eraseClosedAccounts(app.deps, new Date(Date.now() + 15 * DAY));

  it("asks for the password, ends every session, and keeps the account when its owner signs in within 14 days", async () => {
    const user = await signUp(app);
    const wrong = await close(user, true, "not my password");
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().issues).toEqual([{ path: "password", message: "Password is incorrect" }]);
    expect((await userRow(user.id))?.closingAt).toBeNull();

    const asked = await close(user, true);
    expect(asked.statusCode).toBe(202);
    const closesAt = new Date(asked.json().closesAt).getTime();
    expect(Math.abs(closesAt - (Date.now() + 14 * DAY))).toBeLessThan(60_000);
    expect((await call("GET", `/api/users/profile/${user.id}`, user)).statusCode).toBe(401);
    await vi.waitUntil(() => mailsTo(user.email).length === 1, { timeout: 5000 });
    expect(mailsTo(user.email)[0]?.decoded).toContain("Sign in before then and nothing is erased");

    // Changed their mind: signing in keeps it, and says so.
    expect((await login(user)).statusCode).toBe(200);
    expect((await userRow(user.id))?.closingAt).toBeNull();
    await vi.waitUntil(() => mailsTo(user.email).length === 2, { timeout: 5000 });
    expect(mailsTo(user.email)[1]?.decoded).toContain("Your Penchain account stays open");
    expect(await eraseDue()).toBe(0);
    expect((await userRow(user.id))?.email).toBe(user.email);
  });

  it("erases the person after 14 days and keeps, under A former member, their comments, chosen posts and payments", async () => {
    const [leaver, other, subscribedAuthor] = [await signUp(app), await signUp(app), await signUp(app)];
    const kept = await createPost(app, leaver, category, { title: "Stays after I go" });
    await createPost(app, leaver, category, { title: "An unfinished draft", status: "draft" });
    const othersPost = await createPost(app, other, category, { title: "Someone else's" });
    await call("POST", "/api/comments", leaver, { postId: othersPost.id, description: "A comment that stays" });
    await call("PUT", "/api/posts/likes", leaver, { postId: othersPost.id });
    await call("PUT", "/api/users/follow", leaver, { followId: other.id });
    await call("PUT", "/api/users/follow", other, { followId: leaver.id });
    await app.db
      .insert(emailSubscriptions)
      .values({ authorId: subscribedAuthor.id, email: leaver.email, status: "active" });
    await recordFeaturedFee(app, leaver.id, kept.id, `0x${"ab".repeat(32)}`);
    expect((await call("GET", `/api/posts/${othersPost.id}`)).json().likesCount).toBe(1);

    expect((await close(leaver, true)).statusCode).toBe(202);
    // Not yet: the 14 days are not over.
    expect(await eraseClosedAccounts(app.deps)).toBe(0);
    expect(await eraseDue()).toBe(1);
    // Another instance's run (or a second one) finds nothing left.
    expect(await eraseDue()).toBe(0);

    const row = await userRow(leaver.id);
    expect(row).toMatchObject({
      firstName: "A former",
      lastName: "member",
      bio: "",
      profilePhoto: null,
      walletAddress: null,
      passwordHash: "!",
      closingAt: null,
    });
    expect(row?.email).not.toContain(leaver.email);
    expect(row?.closedAt).toBeInstanceOf(Date);
    expect((await login(leaver)).statusCode).toBe(401);

    const post = (await call("GET", `/api/posts/${kept.id}`)).json();
    expect(post.title).toBe("Stays after I go");
    expect(post.user).toMatchObject({ firstName: "A former", lastName: "member" });
    const theirs = (await call("GET", `/api/posts/${othersPost.id}`)).json();
    expect(theirs.likesCount).toBe(0);
    expect(theirs.comments).toMatchObject([
      { description: "A comment that stays", user: { firstName: "A former", lastName: "member" } },
    ]);
    const remaining = await app.db.execute(sql`
      select (select count(*) from posts where user_id = ${leaver.id})::int as posts,
        (select count(*) from follows where follower_id = ${leaver.id} or followee_id = ${leaver.id})::int as follows,
        (select count(*) from email_subscriptions where email = ${leaver.email})::int as subscriptions,
        (select count(*) from payments where user_id = ${leaver.id})::int as payments`);
    expect((remaining as unknown as { rows: unknown[] }).rows[0]).toEqual({
      posts: 1,
      follows: 0,
      subscriptions: 0,
      payments: 1,
    });
    await vi.waitUntil(() => mailsTo(leaver.email).some((mail) => mail.decoded.includes("was closed")), {
      timeout: 5000,
    });
  });

  it("removes the posts too when asked, and will not let the site's only admin leave", async () => {
    const leaver = await signUp(app);
    const post = await createPost(app, leaver, category, { title: "Goes with me" });
    expect((await close(leaver, false)).statusCode).toBe(202);
    expect(await eraseDue()).toBe(1);
    expect((await call("GET", `/api/posts/${post.id}`)).statusCode).toBe(404);

    const onlyAdmin = (
      await app.db.select({ n: sql<number>`count(*)::int` }).from(users).where(eq(users.isAdmin, true))
    )[0]?.n;
    expect(onlyAdmin).toBe(1);
    const refused = await close(admin, true);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe("You are the site's only admin: make someone else an admin first.");
  });

  it("lets its owner change their mind with DELETE as well", async () => {
    const user = await signUp(app);
    await app.db.update(users).set({ closingAt: new Date() }).where(eq(users.id, user.id));
    const kept = await call("DELETE", "/api/users/close", user);
    expect([kept.statusCode, kept.json()]).toEqual([200, { closesAt: null }]);
    expect((await userRow(user.id))?.closingAt).toBeNull();
  });
});

describe.each(databaseTargets)("a closed account on the fediverse, on $name", (target) => {
  let federating: Awaited<ReturnType<typeof startFederatingApp>>;
  let app: App;
  let peer: Peer;
  beforeAll(async () => {
    federating = await startFederatingApp(await target.open());
    ({ app, peer } = federating);
  }, 60_000);
  afterAll(() => federating?.close());

  it("sends Delete of the actor to its followers' servers, then forgets them", async () => {
    await signUp(app); // The site's first user, its admin, who stays.
    const author = await signUp(app, { firstName: "Gone", lastName: "Soon" });
    const actor = await peer.lookup(`acct:gone-soon@${new URL(federating.front.origin).host}`);
    if (!(actor instanceof Person)) throw new Error("the author was not found");
    await peer.follow(actor);
    await vi.waitUntil(() => peer.received.some((activity) => activity.type === "Accept"), { timeout: 10_000 });
    expect(await app.db.$count(remoteFollowers, eq(remoteFollowers.actor, author.id))).toBe(1);

    const asked = await app.inject({
      method: "POST",
      url: "/api/users/close",
      headers: bearer(author),
      payload: { password: author.password, keepPosts: false },
    });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(await eraseClosedAccounts(app.deps, new Date(Date.now() + 15 * DAY))).toBe(1);
    const deletion = await vi.waitUntil(() => peer.received.find((activity) => activity.type === "Delete"), {
      timeout: 15_000,
    });
    const actorUri = `${federating.front.origin}/ap/actors/${author.id}`;
    expect(deletion.actor).toBe(actorUri);
    expect(deletion.json.object).toBe(actorUri);
    await vi.waitUntil(
      async () =>
        (await app.db.$count(remoteFollowers, eq(remoteFollowers.actor, author.id))) === 0 &&
        (await app.db.$count(federationQueue)) === 0,
      { timeout: 15_000 },
    );

    // Followed again from the fediverse: the closed account accepts nobody.
    peer.received.length = 0;
    await peer.follow(actor);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(peer.received.filter((activity) => activity.type === "Accept")).toEqual([]);
    expect(await app.db.$count(remoteFollowers, eq(remoteFollowers.actor, author.id))).toBe(0);
    // Nor can anyone subscribe to it by e-mail.
    const subscribing = await app.inject({
      method: "POST",
      url: "/api/subscriptions",
      payload: { authorId: author.id, email: "late@example.org" },
    });
    expect(subscribing.statusCode).toBe(404);
  });
});
