import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notificationSchema } from "#shared/schemas/notifications.ts";
import { pageOf } from "#shared/schemas/pagination.ts";
import type { App } from "../../../src/server/app.ts";
import { notifications, posts, users } from "../../../src/server/db/schema.ts";
import { sendDigests } from "../../../src/server/services/notifications/digest.ts";
import { notify, withdraw } from "../../../src/server/services/notifications/notify.ts";
import { notificationLockKeys } from "../../../src/server/services/notifications/queries.ts";
import { unsubscribeToken } from "../../../src/server/services/notifications/unsubscribe.ts";
import { notificationsPage } from "../../../src/server/services/notifications/user-notifications.ts";
import { buildTestApp, TEST_JWT_SECRET as JWT_SECRET } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { type SmtpServer, startSmtpServer } from "../../support/smtp.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

describe.each(databaseTargets)("notifications on $name", (target) => {
  let app: App;
  let smtp: SmtpServer;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let category: string;
  /** Where another connection reaches the same database (PostgreSQL only). */
  let databaseUrl: string | undefined;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    const database = await target.open();
    databaseUrl = database.url;
    app = await buildTestApp(database, { env: { SMTP_URL: smtp.url } });
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
    category = (await createCategory(app, admin)).title;
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  const call = (method: "GET" | "PUT" | "POST", url: string, session?: { token: string }, payload?: object) =>
    app.inject({ method, url, payload, headers: session ? bearer(session) : {} });
  const list = async (session: { token: string }, query = "") =>
    pageOf(notificationSchema).parse((await call("GET", `/api/notifications${query}`, session)).json());
  const unread = async (session: { token: string }) =>
    (await call("GET", "/api/notifications/unread-count", session)).json().count as number;
  const verify = (id: string) => app.db.update(users).set({ isAccountVerified: true }).where(eq(users.id, id));
  const follow = (who: { token: string }, id: string) => call("PUT", "/api/users/follow", who, { followId: id });
  const mailsTo = (email: string) => smtp.received.filter((mail) => mail.to.includes(email));
  /** A mail's text with its long header lines unfolded (RFC 5322), as a mail client reads them. */
  const unfolded = (mail: { decoded: string } | undefined) => mail?.decoded.replace(/\r\n[ \t]+/g, " ");
  /** Waits until the outbox has sent everything due (the drain runs after the answer). */
  async function outboxDrained() {
    for (let waited = 0; waited < 5000; waited += 50) {
      if ((await app.mailer.counts()).queued === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the outbox did not drain");
  }

  it("tells of a new follower, and takes it back when they unfollow before it is read", async () => {
    const [author, reader] = [await signUp(app), await signUp(app)];
    await follow(reader, author.id);
    const [entry] = (await list(author)).items;
    expect(entry).toMatchObject({ kind: "follow", read: false, actorsCount: 1, actor: { id: reader.id } });
    expect(await unread(author)).toBe(1);
    await call("PUT", "/api/users/unfollow", reader, { unFollowId: author.id });
    expect((await list(author)).items).toEqual([]);
    expect(await unread(author)).toBe(0);
    // Read before the unfollow: it stays, as it was read.
    await follow(reader, author.id);
    await call("PUT", "/api/notifications/read", author, {});
    await call("PUT", "/api/users/unfollow", reader, { unFollowId: author.id });
    expect((await list(author)).items).toMatchObject([{ kind: "follow", read: true }]);
  });

  it("groups likes on a post into one entry, names the newest, and undoes an unread like", async () => {
    const author = await signUp(app);
    const post = await createPost(app, author, category, { title: "Grouped" });
    const likers = [await signUp(app), await signUp(app), await signUp(app)];
    for (const liker of likers) await call("PUT", "/api/posts/likes", liker, { postId: post.id });
    // The author's own like tells nobody.
    await call("PUT", "/api/posts/likes", author, { postId: post.id });
    let items = (await list(author)).items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      kind: "like",
      actorsCount: 3,
      actor: { id: likers[2]?.id },
      post: { id: post.id, title: "Grouped" },
    });
    // The newest liker takes the like back (a second press): the entry names the one before.
    await call("PUT", "/api/posts/likes", likers[2] as { token: string }, { postId: post.id });
    items = (await list(author)).items;
    expect(items[0]).toMatchObject({ actorsCount: 2, actor: { id: likers[1]?.id } });
    // A like turned into a dislike goes too; when nobody is left, so does the entry.
    await call("PUT", "/api/posts/dislikes", likers[1] as { token: string }, { postId: post.id });
    await call("PUT", "/api/posts/likes", likers[0] as { token: string }, { postId: post.id });
    expect((await list(author)).items).toEqual([]);
  });

  it("tells and takes back one reader's quick likes in turn, without a deadlock between them", async () => {
    const author = await signUp(app);
    const reader = await signUp(app);
    const post = await createPost(app, author, category, { title: "Clicked fast" });
    // A deadlock is retried quietly by the caller; a log that keeps the warnings shows whether one happened.
    const warnings: string[] = [];
    const log = Object.create(app.log) as typeof app.log;
    log.warn = ((_: unknown, message?: string) => void warnings.push(String(message))) as typeof log.warn;
    log.error = log.warn;
    const like = { kind: "like" as const, recipientId: author.id, actorId: reader.id, postId: post.id };
    // Double clicks, ten at once and three times over: each like told and taken back, as react() does after a toggle.
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          index % 2 === 0 ? notify({ ...app.deps, log }, like) : withdraw({ ...app.deps, log }, like),
        ),
      );
    }
    expect(warnings).toEqual([]);
    // Whatever order they ran in, one more like leaves exactly one entry naming the reader once.
    await notify({ ...app.deps, log }, like);
    expect((await list(author)).items).toMatchObject([{ kind: "like", actorsCount: 1, actor: { id: reader.id } }]);
  });

  it.skipIf(target.name !== "postgres")(
    "takes back a like whose notification was told while the unlike waited its turn",
    async () => {
      const author = await signUp(app);
      const reader = await signUp(app);
      const post = await createPost(app, author, category, { title: "Raced" });
      const like = { kind: "like" as const, recipientId: author.id, actorId: reader.id, postId: post.id };
      // Another connection tells the like as notify() does, in its turn, and commits only once the unlike waits.
      const other = new pg.Client({ connectionString: databaseUrl });
      await other.connect();
      try {
        await other.query("begin");
        const { recipientKey, actorKey } = notificationLockKeys(author.id, reader.id);
        await other.query("select pg_advisory_xact_lock(hashtext($1), hashtext($2))", [recipientKey, actorKey]);
        const told = await other.query<{ id: string }>(
          "insert into notifications (user_id, kind, post_id, group_key, last_actor_id) values ($1, 'like', $2, $3, $4) returning id",
          [author.id, post.id, `${post.id}:raced`, reader.id],
        );
        await other.query("insert into notification_actors (notification_id, actor_id) values ($1, $2)", [
          told.rows[0]?.id,
          reader.id,
        ]);
        const takenBack = withdraw(app.deps, like);
        // The unlike is waiting for the lock once PostgreSQL shows it waiting for an advisory lock.
        for (let waited = 0; waited < 5000; waited += 20) {
          const waiting = await other.query("select 1 from pg_locks where locktype = 'advisory' and not granted");
          if (waiting.rowCount) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await other.query("commit");
        expect(await takenBack).toBe(1);
      } finally {
        await other.end();
      }
      expect((await list(author)).items).toEqual([]);
    },
  );

  it("tells of comments, never of one's own, and reads and marks them", async () => {
    const [author, reader] = [await signUp(app), await signUp(app)];
    const post = await createPost(app, author, category);
    await call("POST", "/api/comments", author, { postId: post.id, description: "My own words" });
    expect(await unread(author)).toBe(0);
    await call("POST", "/api/comments", reader, { postId: post.id, description: "Nice" });
    const other = await createPost(app, author, category);
    await call("POST", "/api/comments", reader, { postId: other.id, description: "Again" });
    const items = (await list(author)).items;
    expect(items.map((item) => [item.kind, item.post?.id])).toEqual([
      ["comment", other.id],
      ["comment", post.id],
    ]);
    expect(await unread(author)).toBe(2);
    const read = await call("PUT", "/api/notifications/read", author, { ids: [items[0]?.id] });
    expect(read.json()).toEqual({ count: 1 });
    // Another user's ids change nothing of theirs.
    await call("PUT", "/api/notifications/read", reader, { ids: [items[1]?.id] });
    expect(await unread(author)).toBe(1);
    expect((await call("PUT", "/api/notifications/read", author, {})).json()).toEqual({ count: 0 });
    expect((await call("GET", "/api/notifications")).statusCode).toBe(401);
  });

  it("pages notifications newest first", async () => {
    const author = await signUp(app);
    const readers = await Promise.all(Array.from({ length: 5 }, () => signUp(app)));
    const created = [];
    for (const reader of readers) {
      const post = await createPost(app, author, category);
      await call("POST", "/api/comments", reader, { postId: post.id, description: "First!" });
      created.push(post.id);
    }
    const first = await list(author, "?limit=2");
    expect(first.items.map((item) => item.post?.id)).toEqual(created.slice(-2).reverse());
    const second = await list(author, `?limit=2&cursor=${first.nextCursor}`);
    const third = await list(author, `?limit=2&cursor=${second.nextCursor}`);
    expect([...second.items, ...third.items].map((item) => item.post?.id)).toEqual(created.slice(0, 3).reverse());
    expect(third.nextCursor).toBeNull();
  });

  it("mails a new post to each verified follower who wants it, once, with a one-click unsubscribe", async () => {
    const author = await signUp(app, { firstName: "Ana", lastName: "Writes" });
    const [wants, unverified, inAppOnly, digest] = await Promise.all(Array.from({ length: 4 }, () => signUp(app)));
    for (const reader of [wants, unverified, inAppOnly, digest]) await follow(reader as { token: string }, author.id);
    for (const reader of [wants, inAppOnly, digest]) await verify((reader as { id: string }).id);
    await call("PUT", "/api/notifications/settings", inAppOnly, { settings: [{ topic: "new_post", delivery: "app" }] });
    await call("PUT", "/api/notifications/settings", digest, { settings: [{ topic: "new_post", delivery: "digest" }] });

    const draft = await createPost(app, author, category, { title: "Quiet <b>draft</b> ]]>", status: "draft" });
    expect(await unread(wants as { token: string })).toBe(0);
    await call("PUT", `/api/posts/${draft.id}`, author, {
      title: "Quiet <b>draft</b> ]]>",
      description: "<p>Now it is out.</p>",
      category,
      status: "published",
    });
    await outboxDrained();
    for (const reader of [wants, unverified, inAppOnly, digest]) {
      expect((await list(reader as { token: string })).items).toMatchObject([
        { kind: "new_post", actor: { id: author.id }, post: { id: draft.id } },
      ]);
    }
    const [mail, ...more] = mailsTo((wants as { email: string }).email);
    expect(more).toEqual([]);
    for (const reader of [unverified, inAppOnly, digest])
      expect(mailsTo((reader as { email: string }).email)).toEqual([]);
    expect(mail?.decoded).toContain("Ana Writes published a new post");
    expect(mail?.decoded).toContain("Quiet &lt;b&gt;draft&lt;/b&gt; ]]&gt;");
    const link = `http://penchain.test/unsubscribe/${wants?.id}/new_post/${unsubscribeToken(JWT_SECRET, wants?.id as string, "new_post")}`;
    expect(unfolded(mail)).toContain(`List-Unsubscribe: <${link}>, <mailto:`);
    expect(unfolded(mail)).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(mail?.decoded).toContain(`href="${link}"`);

    // Back to draft and out again: nobody is told twice.
    await call("PUT", `/api/posts/${draft.id}`, author, {
      title: "T",
      description: "<p>x</p>",
      category,
      status: "draft",
    });
    await call("PUT", `/api/posts/${draft.id}`, author, {
      title: "T",
      description: "<p>x</p>",
      category,
      status: "published",
    });
    await outboxDrained();
    expect(mailsTo((wants as { email: string }).email)).toHaveLength(1);
    expect((await list(wants as { token: string })).items).toHaveLength(1);
  });

  it("unsubscribes with one click and no login, refuses forged or borrowed links, and undoes", async () => {
    const [reader, other] = [await signUp(app), await signUp(app)];
    const token = unsubscribeToken(JWT_SECRET, reader.id, "new_post");
    const oneClick = (path: string) =>
      app.inject({
        method: "POST",
        url: path,
        payload: "List-Unsubscribe=One-Click",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
    expect((await oneClick(`/unsubscribe/${other.id}/new_post/${token}`)).statusCode).toBe(403);
    expect((await oneClick(`/unsubscribe/${reader.id}/comment/${token}`)).statusCode).toBe(403);
    expect((await oneClick(`/unsubscribe/${reader.id}/new_post/${"0".repeat(32)}`)).statusCode).toBe(403);
    expect((await oneClick(`/unsubscribe/${reader.id}/new_post/../../etc`)).statusCode).toBe(404);
    const settingOf = async () =>
      (await call("GET", "/api/notifications/settings", reader))
        .json()
        .settings.find((setting: { topic: string }) => setting.topic === "new_post").delivery;
    expect(await settingOf()).toBe("email");
    const done = await oneClick(`/unsubscribe/${reader.id}/new_post/${token}`);
    expect(done.statusCode).toBe(200);
    expect(done.body).toBe("Unsubscribed: New posts by authors you follow.");
    expect(await settingOf()).toBe("app");
    const undo = await call("POST", "/api/notifications/resubscribe", undefined, {
      userId: reader.id,
      topic: "new_post",
      token,
    });
    expect(undo.json()).toMatchObject({ topics: ["new_post"], delivery: "email" });
    expect(await settingOf()).toBe("email");
    const page = await call("POST", "/api/notifications/unsubscribe", undefined, {
      userId: reader.id,
      topic: "new_post",
      token,
    });
    expect(page.json()).toEqual({ label: "New posts by authors you follow", topics: ["new_post"], delivery: "app" });
  });

  it("tells followers of a scheduled post once it goes out, and its author that it did; a blocked author tells no one", async () => {
    const [author, blocked, reader] = [await signUp(app), await signUp(app), await signUp(app)];
    await follow(reader, author.id);
    await follow(reader, blocked.id);
    const soon = new Date(Date.now() + 60_000).toISOString();
    const scheduled = await createPost(app, author, category, { status: "scheduled", publishAt: soon });
    const hidden = await createPost(app, blocked, category, { status: "scheduled", publishAt: soon });
    await call("PUT", `/api/users/block-user/${blocked.id}`, admin);
    await app.db
      .update(posts)
      .set({ publishedAt: new Date(Date.now() - 1000) })
      .where(sql`${posts.id} in (${scheduled.id}, ${hidden.id})`);
    expect((await app.publisher.publishDue()).sort()).toEqual([scheduled.id, hidden.id].sort());
    expect((await list(reader)).items.map((item) => item.post?.id)).toEqual([scheduled.id]);
    const told = (await list(author)).items.filter((item) => item.kind === "published");
    expect(told).toMatchObject([{ actor: null, post: { id: scheduled.id } }]);
  });

  it("mails a comment at once to a verified author, saying who and on which post, and nothing to an unverified one", async () => {
    const [author, unverified] = [await signUp(app), await signUp(app)];
    await verify(author.id);
    const first = await signUp(app, { firstName: "Cleo", lastName: "First" });
    const second = await signUp(app, { firstName: "Dan", lastName: "Second" });
    const post = await createPost(app, author, category, { title: "Mailed at once" });
    const quiet = await createPost(app, unverified, category, { title: "Not mailed" });
    await call("POST", "/api/comments", first, { postId: post.id, description: "One" });
    await outboxDrained();
    await call("POST", "/api/comments", second, { postId: post.id, description: "Two" });
    await call("POST", "/api/comments", first, { postId: quiet.id, description: "Three" });
    await outboxDrained();
    const mails = mailsTo(author.email).map(unfolded);
    expect(mails).toHaveLength(2);
    expect(mails[0]).toMatch(/Cleo First commented on your post .{1,4}Mailed at once/);
    expect(mails[1]).toMatch(/Dan Second and 1 other commented on your post .{1,4}Mailed at once/);
    expect(mailsTo(unverified.email)).toEqual([]);
  });

  it("sends a daily digest once per user and day, across two runs at once", async () => {
    const [author, reader] = [await signUp(app), await signUp(app)];
    await verify(author.id);
    await call("PUT", "/api/notifications/settings", author, { settings: [{ topic: "comment", delivery: "digest" }] });
    const post = await createPost(app, author, category, { title: "Digested" });
    await call("POST", "/api/comments", reader, { postId: post.id, description: "Daily" });
    await outboxDrained();
    expect(mailsTo(author.email)).toEqual([]);
    // Tomorrow: the digest covers yesterday's notifications.
    const yesterday = new Date(Date.now() - 24 * 3600_000);
    await app.db.update(notifications).set({ updatedAt: yesterday }).where(eq(notifications.userId, author.id));
    const [one, two] = await Promise.all([sendDigests(app.deps), sendDigests(app.deps)]);
    expect(one + two).toBeGreaterThanOrEqual(1);
    expect(await sendDigests(app.deps)).toBe(0);
    app.mailer.drain();
    await outboxDrained();
    const digests = mailsTo(author.email);
    expect(digests).toHaveLength(1);
    expect(digests[0]?.decoded).toMatch(/commented on your post .{1,4}Digested/);
    expect(unfolded(digests[0])).toContain(`/unsubscribe/${author.id}/digest/`);
    expect(unfolded(digests[0])).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
  });

  it("keeps the Following feed to the reader's authors, newest first, paged, never anyone else's", async () => {
    const [reader, first, second, stranger] = await Promise.all(Array.from({ length: 4 }, () => signUp(app)));
    await follow(reader as { token: string }, (first as { id: string }).id);
    await follow(reader as { token: string }, (second as { id: string }).id);
    const made = [];
    for (const author of [first, second, first, stranger, second]) {
      made.push({
        author: (author as { id: string }).id,
        id: (await createPost(app, author as { token: string }, category)).id,
      });
    }
    await createPost(app, first as { token: string }, category, { status: "draft" });
    expect((await call("GET", "/api/posts?following=true")).statusCode).toBe(401);
    const expected = made
      .filter((post) => post.author !== (stranger as { id: string }).id)
      .map((post) => post.id)
      .reverse();
    const page1 = (await call("GET", "/api/posts?following=true&limit=3", reader as { token: string })).json();
    const page2 = (
      await call("GET", `/api/posts?following=true&limit=3&cursor=${page1.nextCursor}`, reader as { token: string })
    ).json();
    expect([...page1.items, ...page2.items].map((post: { id: string }) => post.id)).toEqual(expected);
    expect(page2.nextCursor).toBeNull();
    // Nobody else's: another reader's feed is empty, and the public list is unchanged by it.
    expect((await call("GET", "/api/posts?following=true", stranger as { token: string })).json().items).toEqual([]);
  });

  it("reads a page of a reader's 5,000 notifications on its index, newest first, not all of them sorted", async () => {
    const reader = await signUp(app);
    await app.db.execute(sql`
      insert into notifications (user_id, kind, group_key, last_actor_id, updated_at)
      select ${reader.id}::uuid, 'follow', 'many:' || g, ${admin.id}::uuid, now() - (g || ' seconds')::interval
      from generate_series(1, 5000) g`);
    await app.db.execute(sql`analyze`);
    const explained = await app.db.execute(sql`explain ${notificationsPage(app.db, reader.id, { limit: 20 })}`);
    const plan = (explained as unknown as { rows: Record<string, string>[] }).rows
      .map((row) => Object.values(row)[0])
      .join("\n");
    expect(plan).toContain("notifications_list_idx");
    expect(plan).not.toMatch(/\bSort\b/);
    const page = await list(reader, "?limit=20");
    expect(page.items).toHaveLength(20);
    expect(page.items.map((item) => item.updatedAt)).toEqual(
      page.items
        .map((item) => item.updatedAt)
        .sort()
        .reverse(),
    );
  });
});
