import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { handleAliases } from "../../../src/server/db/schema.ts";
import { ALIAS_LIFETIME_MS, ALIASES_KEPT } from "../../../src/server/services/core/handles.ts";
import { buildTestApp } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

/** Issue 35: handles people would take for the staff's, aliases that hold names for ever, and body-less calls. */
describe.each(databaseTargets)("handles and body-less calls on $name", (target) => {
  let app: App;
  beforeAll(async () => {
    app = await buildTestApp(await target.open());
  });
  afterAll(async () => {
    await app.close();
  });

  const rename = (user: Awaited<ReturnType<typeof signUp>>, handle: string) =>
    app.inject({
      method: "PUT",
      url: "/api/users",
      headers: bearer(user),
      payload: { firstName: user.firstName, lastName: user.lastName, email: user.email, bio: "Writes.", handle },
    });
  it("refuses the handles Mastodon keeps for its staff", async () => {
    const user = await signUp(app);
    for (const handle of ["help", "webmaster", "mod", "moderator"]) {
      const response = await rename(user, handle);
      expect(response.statusCode, handle).toBe(400);
      expect(response.json().message).toBe("This handle is reserved");
    }
  });

  it("keeps a few recent handles as aliases, and frees older ones for anyone", async () => {
    const user = await signUp(app, { firstName: "Many", lastName: "Names" });
    const names = ["name-one", "name-two", "name-three", "name-four", "name-five"];
    for (const handle of names) expect((await rename(user, handle)).statusCode).toBe(200);
    const aliases = await app.db.select().from(handleAliases).where(eq(handleAliases.userId, user.id));
    expect(aliases).toHaveLength(ALIASES_KEPT);
    expect(aliases.map((alias) => alias.handle).sort()).toEqual(["name-four", "name-three", "name-two"]);
    // The oldest are anyone's now; the kept ones are still this user's.
    const other = await signUp(app);
    expect((await rename(other, "many-names")).statusCode).toBe(200);
    expect((await rename(other, "name-two")).statusCode).toBe(409);
    // After the alias lifetime, a kept alias is free too.
    await app.db
      .update(handleAliases)
      .set({ createdAt: new Date(Date.now() - ALIAS_LIFETIME_MS - 60_000) })
      .where(eq(handleAliases.handle, "name-two"));
    expect((await rename(other, "name-two")).statusCode).toBe(200);
    const left = await app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(handleAliases)
      .where(eq(handleAliases.userId, user.id));
    expect(left[0]?.n).toBe(2);
  });

  it("takes a JSON content type with no body on calls that take none", async () => {
    const admin = await signUp(app);
    await makeAdmin(app, admin.id);
    const user = await signUp(app);
    const empty = { "content-type": "application/json" };
    const verifyToken = await app.inject({
      method: "POST",
      url: "/api/users/generate-verify-email-token",
      headers: { ...bearer(user), ...empty },
    });
    expect(verifyToken.statusCode).toBe(200);
    for (const url of [
      `/api/users/block-user/${user.id}`,
      `/api/users/unblock-user/${user.id}`,
      `/api/users/likes/${user.id}`,
    ]) {
      const response = await app.inject({ method: "PUT", url, headers: { ...bearer(admin), ...empty } });
      expect(response.statusCode, url).toBe(200);
    }
    // A call that needs a body still says which field is missing.
    const category = (await createCategory(app, admin)).title;
    await createPost(app, admin, category);
    const noBody = await app.inject({ method: "POST", url: "/api/comments", headers: { ...bearer(user), ...empty } });
    expect(noBody.statusCode).toBe(400);
    // Still JSON: broken text and prototype pollution are refused.
    const broken = await app.inject({ method: "POST", url: "/api/users/login", headers: empty, payload: "{nope" });
    expect(broken.statusCode).toBe(400);
    const polluted = await app.inject({
      method: "POST",
      url: "/api/users/login",
      headers: empty,
      payload: '{"__proto__":{"isAdmin":true},"email":"a@b.c","password":"x"}',
    });
    expect(polluted.statusCode).toBe(400);
  });
});
