import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyLog } from "#shared/moderation-log.ts";
import type { App } from "../../../src/server/app.ts";
import { mailOutbox, moderationActions, moderationLog } from "../../../src/server/db/schema.ts";
import { eraseSuspended } from "../../../src/server/services/moderation/suspension.ts";
import { buildTestApp, eventually, twoInstances } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { type SmtpServer, startSmtpServer } from "../../support/smtp.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

type Session = Awaited<ReturnType<typeof signUp>>;
const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../../..");

describe.each(databaseTargets)("moderation on $name", (target) => {
  let app: App;
  let admin: Session;
  let moderator: Session;
  let author: Session;
  let reader: Session;
  let other: Session;
  let category: string;
  let smtp: SmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await buildTestApp(await target.open(), { env: { SMTP_URL: smtp.url } });
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
    [moderator, author, reader, other] = [await signUp(app), await signUp(app), await signUp(app), await signUp(app)];
    const role = await call("PUT", `/api/users/role/${moderator.id}`, admin, { moderator: true });
    expect(role.statusCode).toBe(200);
    expect(role.json().isModerator).toBe(true);
    category = (await createCategory(app, admin)).title;
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  function call(method: "GET" | "PUT" | "POST" | "DELETE", url: string, who: Session | null, payload?: object) {
    return app.inject({ method, url, payload, headers: who ? bearer(who) : {} });
  }
  const rules = async () => (await call("GET", "/api/rules", null)).json().rules as { id: string; title: string }[];
  async function commentOn(postId: string, who: Session, text: string) {
    const response = await call("POST", "/api/comments", who, { postId, description: text });
    expect(response.statusCode).toBe(201);
    return response.json() as { id: string };
  }
  const report = (who: Session, kind: string, id: string, rule: string, note = "") =>
    call("POST", "/api/reports", who, { kind, id, rule, note });
  const act = (who: Session, kind: string, id: string, action: string, rule: string, note = "") =>
    call("POST", "/api/moderation/actions", who, { target: { kind, id }, action, rule, note });
  const mailsTo = async (email: string) =>
    (await app.db.select().from(mailOutbox).where(sql`lower(${mailOutbox.to}) = lower(${email})`)).map(
      (row) => row.subject,
    );

  it("starts with the home page's promise as rules; admins edit them, a moderator or a reader may not", async () => {
    const start = await rules();
    expect(start.map((rule) => rule.title)).toEqual(["No racism", "No unhealthy words", "No spam"]);
    const edited = [
      { id: start[0]?.id, title: "No racism, ever", description: "<script>alert(1)</script> stays text" },
      { id: start[1]?.id, title: "No unhealthy words", description: "" },
      { id: start[2]?.id, title: "No spam", description: "" },
      { title: "No impersonation", description: "Be yourself." },
    ];
    for (const who of [reader, moderator])
      expect((await call("PUT", "/api/rules", who, { rules: edited })).statusCode).toBe(403);
    expect((await call("PUT", "/api/rules", null, { rules: edited })).statusCode).toBe(401);
    const saved = await call("PUT", "/api/rules", admin, { rules: edited });
    expect(saved.statusCode).toBe(200);
    const after = await rules();
    expect(after.map((rule) => rule.title)).toEqual([
      "No racism, ever",
      "No unhealthy words",
      "No spam",
      "No impersonation",
    ]);
    expect(after[0]?.id).toBe(start[0]?.id);
    expect((await call("PUT", "/api/rules", admin, { rules: [] })).statusCode).toBe(400);
  });

  it("takes one open report per reader and item, never of oneself or of what the reader cannot see", async () => {
    const post = await createPost(app, author, category, { title: "Reported once" });
    const [rule] = await rules();
    const first = await report(reader, "post", post.id, rule?.id as string, "Look at the second paragraph");
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ kind: "post", targetId: post.id, reason: rule?.title, status: "open" });
    expect((await report(reader, "post", post.id, "spam")).statusCode).toBe(409);
    expect((await report(author, "post", post.id, "spam")).statusCode).toBe(400);
    const draft = await createPost(app, author, category, { title: "A draft", status: "draft" });
    expect((await report(reader, "post", draft.id, "spam")).statusCode).toBe(404);
    expect((await report(reader, "post", post.id, "not-a-rule")).statusCode).toBe(400);
    expect((await report(reader, "user", author.id, "00000000-0000-4000-8000-000000000000")).statusCode).toBe(400);
    const mine = (await call("GET", "/api/reports/mine", reader)).json();
    expect(mine.items.map((item: { targetId: string }) => item.targetId)).toContain(post.id);
    expect((await call("GET", "/api/reports/mine", null)).statusCode).toBe(401);
  });

  it("groups a comment's reports in the queue; hiding it takes it out of every cached read, mails its author and tells the reporters", async () => {
    const post = await createPost(app, author, category, { title: "A thread" });
    const hostile = await commentOn(post.id, other, "an abusive comment");
    const kept = await commentOn(post.id, reader, "a kind comment");
    const [, unhealthy] = await rules();
    expect(
      (await report(reader, "comment", hostile.id, unhealthy?.id as string, '<img src=x onerror="alert(1)">'))
        .statusCode,
    ).toBe(201);
    expect((await report(author, "comment", hostile.id, "other", "rude\r\nBcc: everyone@example.com")).statusCode).toBe(
      201,
    );
    // Warm every cached read that shows the comment.
    const detail = async () => (await call("GET", `/api/posts/${post.id}`, null)).json();
    const listed = async () => (await call("GET", `/api/posts/${post.id}/comments`, null)).json();
    expect((await detail()).comments.map((comment: { id: string }) => comment.id)).toContain(hostile.id);
    expect((await listed()).items.map((comment: { id: string }) => comment.id)).toContain(hostile.id);

    expect((await call("GET", "/api/moderation/reports", reader)).statusCode).toBe(403);
    const queue = await call("GET", "/api/moderation/reports?kind=comment", moderator);
    expect(queue.statusCode).toBe(200);
    const item = queue.json().items.find((entry: { target: { id: string } }) => entry.target.id === hostile.id);
    expect(item).toMatchObject({ reportsCount: 2, state: "visible", preview: { text: "an abusive comment" } });
    expect(item.notes).toContain('<img src=x onerror="alert(1)">');
    expect(item.reasons.map((reason: { reason: string }) => reason.reason).sort()).toEqual([
      "No unhealthy words",
      "Other",
    ]);
    // The rule a report names travels with its reason, so the moderator's form can start on it.
    const named = (reason: string) =>
      item.reasons.find((entry: { reason: string; rule: string | null }) => entry.reason === reason)?.rule;
    expect(named("No unhealthy words")).toBe(unhealthy?.id);
    expect(named("Other")).toBeNull();

    expect((await act(reader, "comment", hostile.id, "hide", unhealthy?.id as string)).statusCode).toBe(403);
    const hidden = await act(
      moderator,
      "comment",
      hostile.id,
      "hide",
      unhealthy?.id as string,
      "Slurs are not allowed",
    );
    expect(hidden.statusCode).toBe(200);
    expect(hidden.json()).toMatchObject({ action: "hide", reportsResolved: 2 });
    expect((await detail()).comments.map((comment: { id: string }) => comment.id)).toEqual([kept.id]);
    expect((await listed()).items.map((comment: { id: string }) => comment.id)).toEqual([kept.id]);
    expect((await call("GET", `/api/comments/${hostile.id}`, reader)).statusCode).toBe(404);
    expect((await act(moderator, "comment", hostile.id, "hide", "spam")).statusCode).toBe(409);

    await app.mailer.idle();
    expect(await mailsTo(other.email)).toContain("A moderator's decision: No unhealthy words");
    expect(await mailsTo(reader.email)).toContain("Your report was looked at");
    const mine = (await call("GET", "/api/reports/mine", reader)).json();
    expect(mine.items.find((entry: { targetId: string }) => entry.targetId === hostile.id).status).toBe("actioned");
    const open = (await call("GET", "/api/moderation/reports?kind=comment", moderator)).json();
    expect(open.items.some((entry: { target: { id: string } }) => entry.target.id === hostile.id)).toBe(false);
    const actioned = (await call("GET", "/api/moderation/reports?status=actioned&kind=comment", moderator)).json();
    expect(actioned.items.find((entry: { target: { id: string } }) => entry.target.id === hostile.id)).toMatchObject({
      reportsCount: 2,
      state: "hidden",
    });

    const restored = await act(moderator, "comment", hostile.id, "restore", "other", "Taken back on appeal");
    expect(restored.statusCode).toBe(200);
    expect((await listed()).items.map((comment: { id: string }) => comment.id)).toContain(hostile.id);
  });

  it("filters the queue by rule and by where reports came from, open and closed", async () => {
    const [racism] = await rules();
    const [one, two] = [
      await createPost(app, author, category, { title: "Filtered one" }),
      await createPost(app, author, category, { title: "Filtered two" }),
    ];
    expect((await report(reader, "post", one.id, racism?.id as string)).statusCode).toBe(201);
    expect((await report(reader, "post", two.id, "spam")).statusCode).toBe(201);
    const ids = async (query: string) =>
      (await call("GET", `/api/moderation/reports?${query}`, moderator))
        .json()
        .items.map((item: { target: { id: string } }) => item.target.id)
        .filter((id: string) => id === one.id || id === two.id);
    expect(await ids(`status=open&kind=post&rule=${racism?.id}`)).toEqual([one.id]);
    expect(await ids("status=open&kind=post&rule=spam")).toEqual([two.id]);
    expect(await ids("status=open&kind=post&origin=local&limit=50")).toEqual([one.id, two.id]);
    expect(await ids("status=open&kind=post&origin=remote")).toEqual([]);
    expect((await call("GET", "/api/moderation/reports?rule=nonsense", moderator)).statusCode).toBe(400);
    expect((await act(moderator, "post", two.id, "dismiss", "other")).statusCode).toBe(200);
    expect(await ids("status=dismissed&rule=spam&limit=50")).toEqual([two.id]);
  });

  it("hides a post from lists, its page, feeds, the sitemap and search, while its author still sees it with the reason", async () => {
    const post = await createPost(app, author, category, { title: "Quokkaspam everywhere" });
    const [, , spamRule] = await rules();
    const everywhere = async () => {
      const [list, page, feed, sitemap, search] = await Promise.all([
        call("GET", `/api/posts?category=${encodeURIComponent(category)}`, null),
        call("GET", `/api/posts/${post.id}`, null),
        call("GET", "/rss.xml", null),
        call("GET", "/sitemap.xml", null),
        call("GET", "/api/posts?q=quokkaspam", null),
      ]);
      return {
        list: list.json().items.some((item: { id: string }) => item.id === post.id),
        page: page.statusCode,
        feed: feed.body.includes(post.id),
        sitemap: sitemap.body.includes(post.id),
        search: search.json().items.some((item: { id: string }) => item.id === post.id),
      };
    };
    expect(await everywhere()).toEqual({ list: true, page: 200, feed: true, sitemap: true, search: true });
    expect((await act(moderator, "post", post.id, "hide", spamRule?.id as string, "Link farm")).statusCode).toBe(200);
    expect(await everywhere()).toEqual({ list: false, page: 404, feed: false, sitemap: false, search: false });
    const own = await call("GET", `/api/posts/${post.id}`, author);
    expect(own.statusCode).toBe(200);
    expect(own.json().moderation).toEqual({ state: "hidden", reason: "No spam: Link farm" });
    expect(
      (await call("POST", "/api/comments", reader, { postId: post.id, description: "still here?" })).statusCode,
    ).toBe(404);
    expect((await act(author, "post", post.id, "restore", "other")).statusCode).toBe(403);
    expect((await act(moderator, "post", post.id, "restore", "other")).statusCode).toBe(200);
    expect(await everywhere()).toEqual({ list: true, page: 200, feed: true, sitemap: true, search: true });
  });

  it("refuses actions that do not fit: a moderator's own item, hiding a profile, warning a stranger from the fediverse", async () => {
    const own = await createPost(app, moderator, category, { title: "The moderator's own" });
    expect((await act(moderator, "post", own.id, "hide", "spam")).statusCode).toBe(403);
    expect((await act(moderator, "user", author.id, "hide", "spam")).statusCode).toBe(400);
    expect((await act(moderator, "user", author.id, "warn", "other", "Mind the rules")).statusCode).toBe(200);
    expect((await act(moderator, "post", "00000000-0000-4000-8000-000000000000", "hide", "spam")).statusCode).toBe(404);
    expect((await act(moderator, "post", own.id, "explode", "spam")).statusCode).toBe(400);
    await app.mailer.idle();
    expect(await mailsTo(author.email)).toContain("A moderator's decision: Other");
  });

  it("suspends an author: no sign-in, every post and comment out of public places; lifting brings back only those", async () => {
    const writer = await signUp(app);
    const [kept, second] = [
      await createPost(app, writer, category, { title: "Suspended writing one" }),
      await createPost(app, writer, category, { title: "Suspended writing two" }),
    ];
    const elsewhere = await createPost(app, author, category, { title: "Somebody else's" });
    const remark = await commentOn(elsewhere.id, writer, "a remark by the writer");
    // Hidden on its own before the suspension: lifting it must leave this one hidden.
    expect((await act(moderator, "post", second.id, "hide", "spam")).statusCode).toBe(200);
    const listedTitles = async () =>
      (await call("GET", `/api/posts?category=${encodeURIComponent(category)}`, null))
        .json()
        .items.map((item: { title: string }) => item.title);
    expect(await listedTitles()).toContain("Suspended writing one");

    expect((await act(moderator, "comment", remark.id, "suspend", "spam", "Spam account")).statusCode).toBe(200);
    expect((await act(moderator, "user", writer.id, "suspend", "spam")).statusCode).toBe(409);
    expect((await act(moderator, "user", admin.id, "suspend", "spam")).statusCode).toBe(403);
    expect(await listedTitles()).not.toContain("Suspended writing one");
    expect((await call("GET", `/api/posts/${elsewhere.id}/comments`, null)).json().items).toEqual([]);
    expect((await call("GET", `/api/posts/${kept.id}`, null)).statusCode).toBe(404);
    expect([401, 403]).toContain((await call("GET", "/api/reports/mine", writer)).statusCode);
    const login = await app.inject({
      method: "POST",
      url: "/api/users/login",
      payload: { email: writer.email, password: writer.password },
    });
    expect(login.statusCode).toBe(403);
    await app.mailer.idle();
    expect(await mailsTo(writer.email)).toContain("A moderator's decision: Spam");

    const queue = (await call("GET", "/api/moderation/reports?status=actioned", moderator)).json();
    expect(queue.items.length).toBeGreaterThan(0);
    expect((await act(moderator, "user", writer.id, "restore", "other", "Lifted on appeal")).statusCode).toBe(200);
    expect(await listedTitles()).toContain("Suspended writing one");
    expect(await listedTitles()).not.toContain("Suspended writing two");
    expect((await call("GET", `/api/posts/${elsewhere.id}/comments`, null)).json().items).toHaveLength(1);
    const back = await app.inject({
      method: "POST",
      url: "/api/users/login",
      payload: { email: writer.email, password: writer.password },
    });
    expect(back.statusCode).toBe(200);
  });

  it("limits an author: their posts keep their addresses but leave lists, search, feeds and the sitemap; what they write waits", async () => {
    const writer = await signUp(app);
    const follower = await signUp(app);
    await call("PUT", "/api/users/follow", follower, { followId: writer.id });
    const old = await createPost(app, writer, category, { title: "Limitedzebra writing" });
    const places = async (id: string) => {
      const [list, page, feed, sitemap, search, following] = await Promise.all([
        call("GET", `/api/posts?category=${encodeURIComponent(category)}`, null),
        call("GET", `/api/posts/${id}`, null),
        call("GET", "/rss.xml", null),
        call("GET", "/sitemap.xml", null),
        call("GET", "/api/posts?q=limitedzebra", null),
        call("GET", "/api/posts?following=true", follower),
      ]);
      return {
        list: list.json().items.some((item: { id: string }) => item.id === id),
        page: page.statusCode,
        feed: feed.body.includes(id),
        sitemap: sitemap.body.includes(id),
        search: search.json().items.some((item: { id: string }) => item.id === id),
        following: following.json().items.some((item: { id: string }) => item.id === id),
      };
    };
    const everywhere = { list: true, page: 200, feed: true, sitemap: true, search: true, following: true };
    expect(await places(old.id)).toEqual(everywhere);
    expect((await act(moderator, "user", writer.id, "limit", "spam", "Too many links")).statusCode).toBe(200);
    expect((await act(moderator, "user", writer.id, "limit", "spam")).statusCode).toBe(409);
    expect((await act(moderator, "user", admin.id, "limit", "spam")).statusCode).toBe(403);
    const limited = { list: false, page: 200, feed: false, sitemap: false, search: false, following: false };
    expect(await places(old.id)).toEqual(limited);
    // Whoever has the link still reads and answers it; its page tells readers nothing, its author why.
    expect((await call("GET", `/api/posts/${old.id}`, writer)).json().moderation).toEqual({
      state: "limited",
      reason: "Account limited",
    });
    expect((await commentOn(old.id, reader, "still readable")).id).toBeTruthy();

    // What they write now waits for a moderator, in the queue with why.
    const fresh = await createPost(app, writer, category, { title: "Limitedzebra again" });
    expect((await call("GET", `/api/posts/${fresh.id}`, null)).statusCode).toBe(404);
    const remark = await call("POST", "/api/comments", writer, { postId: old.id, description: "my own remark" });
    expect(remark.json().waitingForReview).toBe(true);
    const queue = (await call("GET", "/api/moderation/reports?status=open", moderator)).json();
    const waiting = queue.items.find((item: { target: { id: string } }) => item.target.id === fresh.id);
    expect(waiting.reasons.map((reason: { reason: string }) => reason.reason)).toContain(
      "Written by a limited account",
    );
    // Let through, it stays limited: reachable, listed nowhere.
    expect((await act(moderator, "post", fresh.id, "restore", "other")).statusCode).toBe(200);
    expect(await places(fresh.id)).toEqual(limited);

    expect((await act(moderator, "user", writer.id, "restore", "other", "Lifted")).statusCode).toBe(200);
    expect(await places(old.id)).toEqual(everywhere);
    expect(await places(fresh.id)).toEqual(everywhere);
    const later = await call("POST", "/api/comments", writer, { postId: old.id, description: "free again" });
    expect(later.json().waitingForReview).toBe(false);
  });

  it("tells the person a decision is about in the app, once, leading to their decisions; mail is the decision's own", async () => {
    const writer = await signUp(app);
    const post = await createPost(app, writer, category, { title: "Told in the app" });
    await app.mailer.idle();
    const mailsBefore = (await mailsTo(writer.email)).length;
    expect((await act(moderator, "post", post.id, "hide", "spam", "An ad")).statusCode).toBe(200);
    expect((await act(moderator, "user", writer.id, "warn", "other", "Mind the rules")).statusCode).toBe(200);
    const told = (await call("GET", "/api/notifications", writer)).json().items;
    expect(
      told.map((item: { kind: string; post: { title: string } | null }) => [item.kind, item.post?.title ?? null]),
    ).toEqual([
      ["moderation", null],
      ["moderation", "Told in the app"],
    ]);
    await app.mailer.idle();
    expect((await mailsTo(writer.email)).length - mailsBefore).toBe(2);
    // Nobody switches these off: the settings list leaves them out and refuses them.
    const settings = (await call("GET", "/api/notifications/settings", writer)).json().settings;
    expect(settings.map((entry: { topic: string }) => entry.topic)).not.toContain("moderation");
    const off = await call("PUT", "/api/notifications/settings", writer, {
      settings: [{ topic: "moderation", delivery: "email" }],
    });
    expect(off.statusCode).toBe(400);
  });

  it("mails a suspended account a link that appeals without signing in, for that one decision only", async () => {
    const writer = await signUp(app);
    await createPost(app, writer, category, { title: "Suspended and appealing" });
    expect((await act(moderator, "user", writer.id, "suspend", "spam", "Spam account")).statusCode).toBe(200);
    await app.mailer.idle();
    const mail = smtp.received.find((received) => received.to.includes(writer.email.toLowerCase()));
    const link = /\/appeal\/([0-9a-f-]{36})\/([0-9a-f]{32})/.exec(mail?.decoded ?? "");
    expect(link).not.toBeNull();
    const [, actionId, token] = link as RegExpExecArray;
    const seen = await call("GET", `/api/appeals/by-link/${actionId}/${token}`, null);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ action: "suspend", rule: "Spam", appeal: { status: "none", open: true } });
    const forged = `${token?.slice(0, -1)}${token?.endsWith("0") ? "1" : "0"}`;
    expect((await call("GET", `/api/appeals/by-link/${actionId}/${forged}`, null)).statusCode).toBe(403);
    const appeal = (withToken: string) =>
      call("POST", "/api/appeals/by-link", null, { actionId, token: withToken, text: "My posts are my own reviews." });
    expect((await appeal(forged)).statusCode).toBe(403);
    expect((await appeal(token as string)).statusCode).toBe(201);
    expect((await appeal(token as string)).statusCode).toBe(409);
    const waiting = (await call("GET", "/api/moderation/appeals", admin)).json().appeals;
    expect(waiting.find((entry: { id: string }) => entry.id === actionId)).toMatchObject({
      appeal: { status: "waiting", text: "My posts are my own reviews." },
    });
    expect((await call("POST", `/api/moderation/appeals/${actionId}`, admin, { outcome: "reversed" })).statusCode).toBe(
      200,
    );
    const back = await app.inject({
      method: "POST",
      url: "/api/users/login",
      payload: { email: writer.email, password: writer.password },
    });
    expect(back.statusCode).toBe(200);
  });

  it("erases an account 30 days after its suspension, not a day sooner", async () => {
    const writer = await signUp(app);
    await createPost(app, writer, category, { title: "Soon gone" });
    expect((await act(moderator, "user", writer.id, "suspend", "spam")).statusCode).toBe(200);
    const inDays = (days: number) => new Date(Date.now() + days * 24 * 60 * 60 * 1000);
    expect(await eraseSuspended({ db: app.db, log: app.log }, inDays(29))).toBe(0);
    expect((await call("GET", `/api/users/${writer.id}`, null)).statusCode).toBe(200);
    expect(await eraseSuspended({ db: app.db, log: app.log }, inDays(31))).toBe(1);
    expect((await call("GET", `/api/users/${writer.id}`, null)).statusCode).toBe(404);
  });

  it("lets the author appeal a decision once, within 20 days; another moderator reverses it and it is undone", async () => {
    const post = await createPost(app, author, category, { title: "Wrongly hidden" });
    const hid = await act(moderator, "post", post.id, "hide", "spam", "Looks like an ad");
    expect(hid.statusCode).toBe(200);
    const mine = (await call("GET", "/api/moderation/mine", author)).json().decisions;
    const decision = mine.find(
      (entry: { action: string; rule: string }) => entry.action === "hide" && entry.rule === "Spam",
    );
    expect(decision).toMatchObject({
      targetKind: "post",
      note: "Looks like an ad",
      appeal: { status: "none", open: true },
    });
    const appealOf = (who: Session, text = "It is my own review, not an advertisement.") =>
      call("POST", "/api/appeals", who, { actionId: decision.id, text });
    expect((await appealOf(reader)).statusCode).toBe(404);
    expect((await appealOf(author, "short")).statusCode).toBe(400);
    expect((await appealOf(author)).statusCode).toBe(201);
    expect((await appealOf(author)).statusCode).toBe(409);

    const waiting = (await call("GET", "/api/moderation/appeals", moderator)).json().appeals;
    expect(waiting.find((entry: { id: string }) => entry.id === decision.id)).toMatchObject({
      appeal: { status: "waiting", text: "It is my own review, not an advertisement." },
      preview: { title: "Wrongly hidden" },
    });
    const decide = (who: Session, outcome: string) =>
      call("POST", `/api/moderation/appeals/${decision.id}`, who, { outcome });
    expect((await decide(moderator, "reversed")).statusCode).toBe(403);
    expect((await decide(admin, "reversed")).statusCode).toBe(200);
    expect((await decide(admin, "upheld")).statusCode).toBe(409);
    expect((await call("GET", `/api/posts/${post.id}`, null)).statusCode).toBe(200);
    await app.mailer.idle();
    expect(await mailsTo(author.email)).toContain("Your appeal was decided");
    const after = (await call("GET", "/api/moderation/mine", author)).json().decisions;
    expect(after.find((entry: { id: string }) => entry.id === decision.id).appeal).toMatchObject({
      status: "reversed",
      open: false,
    });

    // A decision older than 20 days can no longer be appealed.
    const late = await createPost(app, author, category, { title: "Hidden long ago" });
    expect((await act(moderator, "post", late.id, "hide", "spam")).statusCode).toBe(200);
    const [old] = await app.db
      .update(moderationActions)
      .set({ createdAt: new Date(Date.now() - 21 * 24 * 60 * 60 * 1000) })
      .where(eq(moderationActions.targetId, late.id))
      .returning({ id: moderationActions.id });
    const tooLate = await call("POST", "/api/appeals", author, {
      actionId: old?.id,
      text: "Please look again at this one.",
    });
    expect(tooLate.statusCode).toBe(400);
  });

  it("keeps a public log anyone can check offline; an entry edited or deleted in the database breaks the check", async () => {
    const page = await call("GET", "/api/moderation/log?limit=2", null);
    expect(page.statusCode).toBe(200);
    expect(page.json().items).toHaveLength(2);
    expect(JSON.stringify(page.json())).not.toContain(author.id);
    const exported = (await call("GET", "/api/moderation/log/export", null)).json();
    expect(exported.entries.length).toBeGreaterThanOrEqual(5);
    expect(await verifyLog(exported.entries, exported.heads, exported.publicKey, exported.latest)).toEqual([]);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "log-")), "log.json");
    fs.writeFileSync(file, JSON.stringify(exported));
    const checked = await run(process.execPath, [path.join(ROOT, "scripts/verify-log.ts"), file], { cwd: ROOT });
    expect(checked.stdout).toMatch(/entries chained/);

    await app.db.update(moderationLog).set({ rule: "Nothing to see" }).where(eq(moderationLog.seq, 2));
    const edited = (await call("GET", "/api/moderation/log/export", null)).json();
    expect(await verifyLog(edited.entries, edited.heads, edited.publicKey, edited.latest)).toContain(
      "entry 2 was changed after it was written",
    );
    fs.writeFileSync(file, JSON.stringify(edited));
    const failed = await run(process.execPath, [path.join(ROOT, "scripts/verify-log.ts"), file], { cwd: ROOT }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain("entry 2 was changed");

    await app.db.delete(moderationLog).where(eq(moderationLog.seq, 3));
    const deleted = (await call("GET", "/api/moderation/log/export", null)).json();
    expect((await verifyLog(deleted.entries, deleted.heads, deleted.publicKey, deleted.latest)).join("\n")).toMatch(
      /missing/,
    );
  });
});

describe("a hidden post on two instances, told through Redis", () => {
  it.runIf(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL)(
    "leaves the other instance's cached list at once",
    async () => {
      const target = databaseTargets.find((candidate) => candidate.name === "postgres");
      if (!target) throw new Error("no PostgreSQL");
      const { one, two, close } = await twoInstances(target.open);
      const admin = await signUp(one);
      await makeAdmin(one, admin.id);
      const author = await signUp(one);
      const topic = (await createCategory(one, admin)).title;
      const post = await createPost(one, author, topic);
      const listed = async () =>
        (await two.inject({ method: "GET", url: "/api/posts" }))
          .json()
          .items.some((item: { id: string }) => item.id === post.id);
      expect(await listed()).toBe(true);
      const hidden = await one.inject({
        method: "POST",
        url: "/api/moderation/actions",
        headers: bearer(admin),
        payload: { target: { kind: "post", id: post.id }, action: "hide", rule: "spam", note: "" },
      });
      expect(hidden.statusCode).toBe(200);
      expect(await eventually(listed, false)).toBe(false);
      await close();
    },
  );
});
