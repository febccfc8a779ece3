import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCOPES } from "#shared/scopes.ts";
import type { App } from "../../../src/server/app.ts";
import { apiTokens, users } from "../../../src/server/db/schema.ts";
import { buildTestApp, generousLimits } from "../../support/app.ts";
import { createCategory } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { makeToken } from "../../support/tokens.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

type Session = Awaited<ReturnType<typeof signUp>>;

describe.each(databaseTargets)("personal access tokens on $name", (target) => {
  let app: App;
  let admin: Session;
  let category: string;
  beforeAll(async () => {
    app = await buildTestApp(await target.open(), {
      rateLimits: { ...generousLimits, apiTokens: { max: 5, timeWindow: 60_000 } },
    });
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
    category = (await createCategory(app, admin)).title;
  }, 60_000);
  afterAll(() => app.close());

  const draft = (headers: Record<string, string>, title = "By script") =>
    app.inject({
      method: "POST",
      url: "/api/posts",
      payload: { title, description: "<p>Written by a script</p>", category, isFeatured: false, status: "draft" },
      headers,
    });

  it("is made, shown once, listed without its secret, used, and revoked", async () => {
    const owner = await signUp(app);
    const made = await makeToken(app, owner, ["posts:read", "posts:write"], { name: "CI", expiresInDays: 30 });
    expect(made.token).toMatch(/^pcn_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(made.expiresAt ?? "") - Date.now()).toBeGreaterThan(29 * 86_400_000);
    const [stored] = await app.db.select().from(apiTokens).where(eq(apiTokens.id, made.id));
    expect(stored?.tokenHash).not.toContain(made.token.slice(4));
    expect(JSON.stringify(stored)).not.toContain(made.token);

    const created = await draft(made.headers);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().user.id).toBe(owner.id);
    const drafts = await app.inject({ method: "GET", url: "/api/posts/drafts", headers: made.headers });
    expect(drafts.json().items.map((post: { id: string }) => post.id)).toEqual([created.json().id]);

    const listed = await app.inject({ method: "GET", url: "/api/tokens", headers: bearer(owner) });
    expect(listed.statusCode).toBe(200);
    const [item] = listed.json().items;
    expect(item).toMatchObject({ id: made.id, name: "CI", scopes: ["posts:read", "posts:write"] });
    expect(item.lastUsedAt).not.toBeNull();
    expect(listed.body).not.toContain(made.token);
    expect(listed.body).not.toContain(stored?.tokenHash);

    const stranger = await signUp(app);
    const theirs = await app.inject({ method: "DELETE", url: `/api/tokens/${made.id}`, headers: bearer(stranger) });
    expect(theirs.statusCode).toBe(404);
    const revoked = await app.inject({ method: "DELETE", url: `/api/tokens/${made.id}`, headers: bearer(owner) });
    expect(revoked.statusCode).toBe(200);
    expect((await draft(made.headers)).statusCode).toBe(401);
  });

  it("records its last use at most once a minute, not on every call", async () => {
    const owner = await signUp(app);
    const made = await makeToken(app, owner, ["posts:read"]);
    const lastUsed = async () =>
      (await app.db.select().from(apiTokens).where(eq(apiTokens.id, made.id)))[0]?.lastUsedAt ?? null;
    expect(await lastUsed()).toBeNull();
    await app.inject({ method: "GET", url: "/api/posts/drafts", headers: made.headers });
    await expect.poll(lastUsed).not.toBeNull();
    const first = await lastUsed();
    await app.inject({ method: "GET", url: "/api/posts/drafts", headers: made.headers });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await lastUsed()).toEqual(first);
    await app.db
      .update(apiTokens)
      .set({ lastUsedAt: sql`now() - interval '2 minutes'` })
      .where(eq(apiTokens.id, made.id));
    const stale = await lastUsed();
    await app.inject({ method: "GET", url: "/api/posts/drafts", headers: made.headers });
    await expect.poll(async () => (await lastUsed())?.getTime()).toBeGreaterThan(stale?.getTime() ?? 0);
  });

  it("refuses a route outside its scopes, and every route that names no scope", async () => {
    const owner = await signUp(app);
    const reader = await makeToken(app, owner, ["posts:read"]);
    const refused = await draft(reader.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain("posts:write");
    // Reactions, messages and profile reads name no scope: a token gets nowhere near them.
    for (const [method, url] of [
      ["PUT", "/api/posts/likes"],
      ["GET", "/api/notifications"],
      ["GET", `/api/users/profile/${owner.id}`],
    ] as const) {
      expect((await app.inject({ method, url, payload: {}, headers: reader.headers })).statusCode).toBe(403);
    }
    // A path nobody serves is still a 404.
    expect((await app.inject({ method: "GET", url: "/api/nothing-here", headers: reader.headers })).statusCode).toBe(
      404,
    );
  });

  it("refuses junk and look-alike secrets as unknown", async () => {
    const owner = await signUp(app);
    const made = await makeToken(app, owner, ["posts:read"]);
    for (const secret of [
      "pcn_",
      `pcn_${"A".repeat(43)}`,
      `${made.token}x`,
      made.token.toUpperCase(),
      `pcn_${"'; drop table api_tokens; --".padEnd(43, "a")}`,
      `pcn_${"\u0000".repeat(43)}`,
    ]) {
      const response = await app.inject({
        method: "GET",
        url: "/api/posts/drafts",
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(response.statusCode, secret).toBe(401);
    }
    const expired = await makeToken(app, owner, ["posts:read"], { expiresInDays: 1 });
    await app.db
      .update(apiTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(apiTokens.id, expired.id));
    expect((await app.inject({ method: "GET", url: "/api/posts/drafts", headers: expired.headers })).statusCode).toBe(
      401,
    );
  });

  it("does only what its owner may: another's post, the admin's routes, whatever its scopes", async () => {
    const [owner, other] = [await signUp(app), await signUp(app)];
    const theirs = await draft(bearer(other), "Not yours");
    const writer = await makeToken(app, owner, ["posts:read", "posts:write", "comments:write", "stats:read"]);
    const edit = await app.inject({
      method: "PUT",
      url: `/api/posts/${theirs.json().id}`,
      payload: { title: "Taken", description: "<p>x</p>", category },
      headers: writer.headers,
    });
    expect(edit.statusCode).toBe(403);
    const remove = await app.inject({
      method: "DELETE",
      url: `/api/posts/${theirs.json().id}`,
      headers: writer.headers,
    });
    expect(remove.statusCode).toBe(403);
    const read = await app.inject({ method: "GET", url: `/api/posts/${theirs.json().id}`, headers: writer.headers });
    expect(read.statusCode).toBe(404);
    const stats = await app.inject({
      method: "GET",
      url: `/api/stats/posts/${theirs.json().id}`,
      headers: writer.headers,
    });
    expect(stats.statusCode).toBe(403);
  });

  it("gives staff scopes to staff only, and drops the token the moment the role goes", async () => {
    const user = await signUp(app);
    for (const scope of ["moderation", "admin"]) {
      const response = await app.inject({
        method: "POST",
        url: "/api/tokens",
        payload: { name: "x", scopes: ["posts:read", scope] },
        headers: bearer(user),
      });
      expect(response.statusCode, scope).toBe(403);
    }
    const moderator = await signUp(app);
    await app.db.update(users).set({ isModerator: true }).where(eq(users.id, moderator.id));
    const refusedAdmin = await app.inject({
      method: "POST",
      url: "/api/tokens",
      payload: { name: "x", scopes: ["admin"] },
      headers: bearer(moderator),
    });
    expect(refusedAdmin.statusCode).toBe(403);
    const queue = await makeToken(app, moderator, ["moderation", "posts:read"]);
    const reports = () => app.inject({ method: "GET", url: "/api/moderation/reports", headers: queue.headers });
    expect((await reports()).statusCode).toBe(200);
    // Admin routes need the admin scope, which a moderator's token cannot hold.
    expect((await app.inject({ method: "GET", url: "/api/users/", headers: queue.headers })).statusCode).toBe(403);

    const role = await app.inject({
      method: "PUT",
      url: `/api/users/role/${moderator.id}`,
      payload: { moderator: false },
      headers: bearer(admin),
    });
    expect(role.statusCode).toBe(200);
    expect((await reports()).statusCode).toBe(403);
    // The whole token stops, not just the staff routes.
    expect((await app.inject({ method: "GET", url: "/api/posts/drafts", headers: queue.headers })).statusCode).toBe(
      403,
    );

    const adminToken = await makeToken(app, admin, ["admin"]);
    expect((await app.inject({ method: "GET", url: "/api/users/", headers: adminToken.headers })).statusCode).toBe(200);
  });

  it("stops at once when its owner is blocked, suspended or closing", async () => {
    for (const change of [
      { isBlocked: true },
      { suspendedAt: new Date() },
      { closingAt: new Date() },
    ] satisfies Partial<typeof users.$inferInsert>[]) {
      const owner = await signUp(app);
      const made = await makeToken(app, owner, ["posts:read"]);
      const call = () => app.inject({ method: "GET", url: "/api/posts/drafts", headers: made.headers });
      expect((await call()).statusCode).toBe(200);
      await app.db.update(users).set(change).where(eq(users.id, owner.id));
      expect((await call()).statusCode, JSON.stringify(change)).toBe(403);
    }
  });

  it("cannot make tokens, change a password or an e-mail, link a wallet or close the account", async () => {
    const owner = await signUp(app);
    const scopes = SCOPES.filter((scope) => scope !== "moderation" && scope !== "admin");
    const everything = await makeToken(app, owner, scopes);
    const calls = [
      ["POST", "/api/tokens", { name: "child", scopes: ["posts:read"] }],
      ["GET", "/api/tokens", undefined],
      ["DELETE", `/api/tokens/${everything.id}`, undefined],
      ["PUT", "/api/users/password", { password: "a fresh long secret", currentPassword: owner.password }],
      ["PUT", "/api/users/", { firstName: "A", lastName: "B", email: "taken@example.com", bio: "" }],
      ["POST", "/api/users/wallet", { message: "x", signature: "0x00" }],
      ["POST", "/api/users/close", { password: owner.password }],
      ["POST", "/api/users/logout", undefined],
    ] as const;
    for (const [method, url, payload] of calls) {
      // A token each: this app allows a token 5 calls a minute.
      const { headers } = await makeToken(app, owner, scopes);
      const response = await app.inject({ method, url, payload, headers });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
    const [row] = await app.db.select().from(users).where(eq(users.id, owner.id));
    expect(row?.closingAt).toBeNull();
    expect(row?.email).toBe(owner.email);
    expect((await app.inject({ method: "GET", url: "/api/tokens", headers: bearer(owner) })).json().items).toHaveLength(
      calls.length + 1,
    );
  });

  it("refuses a session's staff scopes it does not hold, unknown scopes and hostile names", async () => {
    const owner = await signUp(app);
    for (const payload of [
      { name: "x", scopes: [] },
      { name: "x", scopes: ["posts:delete"] },
      { name: "", scopes: ["posts:read"] },
      { name: "x".repeat(81), scopes: ["posts:read"] },
      { name: "x", scopes: ["posts:read"], expiresInDays: 0 },
      { name: "x", scopes: ["posts:read"], expiresInDays: 367 },
      { name: "x", scopes: ["posts:read"], expiresInDays: 1.5 },
    ]) {
      const response = await app.inject({ method: "POST", url: "/api/tokens", payload, headers: bearer(owner) });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const hostile = await makeToken(app, owner, ["posts:read", "posts:read"], { name: "<img src=x onerror=alert(1)>" });
    expect(hostile.scopes).toEqual(["posts:read"]);
    const listed = await app.inject({ method: "GET", url: "/api/tokens", headers: bearer(owner) });
    expect(listed.json().items[0].name).toBe("<img src=x onerror=alert(1)>");
  });

  it("answers every call with its own IETF RateLimit fields, and 429 past them", async () => {
    const owner = await signUp(app);
    const made = await makeToken(app, owner, ["posts:read"]);
    const other = await makeToken(app, owner, ["posts:read"]);
    const seen: string[] = [];
    for (let call = 0; call < 5; call++) {
      // The refused call counts and carries the fields too.
      const url = call === 2 ? "/api/notifications" : "/api/posts/drafts";
      const response = await app.inject({ method: "GET", url, headers: made.headers });
      expect(response.statusCode).toBe(call === 2 ? 403 : 200);
      expect(response.headers["ratelimit-policy"]).toBe('"token";q=5;w=60');
      seen.push(String(response.headers.ratelimit));
    }
    expect(seen.map((field) => /^"token";r=(\d+);t=(\d+)$/.exec(field)?.[1])).toEqual(["4", "3", "2", "1", "0"]);
    const over = await app.inject({ method: "GET", url: "/api/posts/drafts", headers: made.headers });
    expect(over.statusCode).toBe(429);
    expect(over.headers.ratelimit).toMatch(/^"token";r=0;t=\d+$/);
    expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
    // Each token has its own allowance; a session has none of these fields.
    const fresh = await app.inject({ method: "GET", url: "/api/posts/drafts", headers: other.headers });
    expect(fresh.headers.ratelimit).toMatch(/^"token";r=4;/);
    const session = await app.inject({ method: "GET", url: "/api/posts/drafts", headers: bearer(owner) });
    expect(session.headers.ratelimit).toBeUndefined();
  });
});
