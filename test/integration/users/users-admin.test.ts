import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { openDatabase } from "../../../src/server/db/client.ts";
import { users } from "../../../src/server/db/schema.ts";
import { buildTestApp } from "../../support/app.ts";
import { insertUser } from "../../support/builders.ts";
import { databaseTargets } from "../../support/databases.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

describe.each(databaseTargets)("admin calls on $name", (target) => {
  let app: App;
  let admin: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    app = await buildTestApp(await target.open());
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
  });
  afterAll(() => app.close());

  const call = (method: "GET" | "PUT", url: string, session: { token: string }) =>
    app.inject({ method, url, headers: bearer(session) });

  it("refuses every admin call to a regular user with 403", async () => {
    const [user, other] = [await signUp(app), await signUp(app)];
    for (const [method, url] of [
      ["GET", "/api/users"],
      ["PUT", `/api/users/block-user/${other.id}`],
      ["PUT", `/api/users/unblock-user/${other.id}`],
      ["PUT", `/api/users/likes/${other.id}`],
    ] as const) {
      const response = await call(method, url, user);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: "Only admins can do this." });
    }
  });

  it("lists users newest first, in pages that neither skip nor repeat", async () => {
    for (let index = 0; index < 7; index++) await signUp(app);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await call("GET", `/api/users?limit=3${cursor ? `&cursor=${cursor}` : ""}`, admin);
      expect(page.statusCode).toBe(200);
      const body = page.json();
      expect(body.items.length).toBeLessThanOrEqual(3);
      seen.push(...body.items.map((item: { id: string }) => item.id));
      cursor = body.nextCursor;
    } while (cursor);
    const all = (await call("GET", "/api/users?limit=100", admin)).json().items.map((item: { id: string }) => item.id);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(seen.length);
    expect((await call("GET", "/api/users?cursor=nonsense", admin)).statusCode).toBe(400);
    expect((await call("GET", "/api/users?limit=1000", admin)).statusCode).toBe(400);
  });

  it("shows e-mails, counts and the account type in the list", async () => {
    const user = await signUp(app);
    const item = (await call("GET", "/api/users?limit=100", admin))
      .json()
      .items.find((entry: { id: string }) => entry.id === user.id);
    expect(item).toMatchObject({
      email: user.email,
      followersCount: 0,
      postCount: 0,
      rewardsCount: 0,
      accountType: "Starter Account",
      isBlocked: false,
    });
  });

  it("blocks a user: login is refused, old tokens stop working; unblocking restores login", async () => {
    const user = await signUp(app);
    const blocked = await call("PUT", `/api/users/block-user/${user.id}`, admin);
    expect(blocked.json().isBlocked).toBe(true);
    const login = await app.inject({
      method: "POST",
      url: "/api/users/login",
      payload: { email: user.email, password: user.password },
    });
    expect(login.statusCode).toBe(403);
    expect(login.json().message).toBe("Your account has been blocked. Please contact an admin.");
    const oldToken = await app.inject({
      method: "PUT",
      url: "/api/users/follow",
      payload: { followId: admin.id },
      headers: bearer(user),
    });
    expect(oldToken.statusCode).toBe(401);

    expect((await call("PUT", `/api/users/unblock-user/${user.id}`, admin)).json().isBlocked).toBe(false);
    const again = await app.inject({
      method: "POST",
      url: "/api/users/login",
      payload: { email: user.email, password: user.password },
    });
    expect(again.statusCode).toBe(200);
  });

  it("refuses to block oneself", async () => {
    const response = await call("PUT", `/api/users/block-user/${admin.id}`, admin);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("You cannot block yourself");
  });

  it("rewards once per admin and takes it back on the second call", async () => {
    const user = await signUp(app);
    const secondAdmin = await signUp(app);
    await makeAdmin(app, secondAdmin.id);
    expect((await call("PUT", `/api/users/likes/${user.id}`, admin)).json()).toEqual({
      isRewarded: true,
      rewardsCount: 1,
    });
    expect((await call("PUT", `/api/users/likes/${user.id}`, secondAdmin)).json()).toEqual({
      isRewarded: true,
      rewardsCount: 2,
    });
    expect((await call("PUT", `/api/users/likes/${user.id}`, admin)).json()).toEqual({
      isRewarded: false,
      rewardsCount: 1,
    });
    expect((await call("GET", `/api/users/profile/${user.id}`, user)).json().rewardsCount).toBe(1);
    expect((await call("PUT", `/api/users/likes/${admin.id}`, admin)).statusCode).toBe(400);
    expect((await call("PUT", "/api/users/likes/00000000-0000-4000-8000-000000000000", admin)).statusCode).toBe(404);
  });
});

describe("npm run admin -- promote", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-admin-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const ROOT = path.resolve(import.meta.dirname, "../../..");
  const promote = (...args: string[]) =>
    spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/admin.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir },
      encoding: "utf8",
    });

  it("promotes a user by e-mail, in any case, and says when there is none", async () => {
    const database = await openDatabase({ dataDir });
    await database.migrate();
    const user = await insertUser(database.db, { email: "Promote.Me@example.com" });
    await database.close();

    const ok = promote("promote", "promote.me@EXAMPLE.com");
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain("Promote.Me@example.com is now an admin.");
    expect(promote("promote", "nobody@example.com").status).toBe(1);
    expect(promote().status).toBe(2);

    const reopened = await openDatabase({ dataDir });
    const rows = await reopened.db.select({ id: users.id, isAdmin: users.isAdmin }).from(users);
    await reopened.close();
    expect(rows).toEqual([{ id: user.id, isAdmin: true }]);
  }, 60_000);
});
