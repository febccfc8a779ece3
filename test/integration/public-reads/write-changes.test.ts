import crypto from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { buildTestApp } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { pgliteTarget } from "../../support/databases.ts";
import { makeAdmin, signUp } from "../../support/users.ts";

/** A write route registered the way a new one would be: it writes, and its service forgets `deps.changed`. */
async function appWithForgetfulWrite(env: Record<string, string> = {}) {
  const app = await buildTestApp(await pgliteTarget.open(), { env });
  app.post("/api/forgetful", async () => {
    await app.db.execute("update posts set title = 'Changed behind the cache'");
    return { ok: true };
  });
  // Told through the app's deps rather than its own request's: nothing ties the change to the request.
  app.post("/api/elsewhere", async () => {
    await app.db.execute("update posts set title = 'Changed and said elsewhere'");
    app.deps.changed(null);
    return { ok: true };
  });
  app.post("/api/careful", async (request) => {
    await app.db.execute("update posts set title = 'Changed and said'");
    request.deps.changed(null);
    return { ok: true };
  });
  return app;
}

describe("a write says what it changed", () => {
  let app: App | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  const publishOne = async (on: App) => {
    const author = await signUp(on);
    await makeAdmin(on, author.id);
    const post = await createPost(on, author, (await createCategory(on, author)).title, { title: "As written" });
    return async () => (await on.inject({ method: "GET", url: `/api/posts/${post.id}` })).json().title;
  };

  it("fails a write that forgot, outside production, so its first test catches it", async () => {
    app = await appWithForgetfulWrite();
    await publishOne(app);
    const forgot = await app.inject({ method: "POST", url: "/api/forgetful" });
    expect(forgot.statusCode).toBe(500);
    expect((await app.inject({ method: "POST", url: "/api/elsewhere" })).statusCode).toBe(500);
    expect((await app.inject({ method: "POST", url: "/api/careful" })).statusCode).toBe(200);
  });

  it("in production answers it, and drops every cached read rather than serve what it changed", async () => {
    app = await appWithForgetfulWrite({
      NODE_ENV: "production",
      JWT_SECRET: crypto.randomBytes(48).toString("base64"),
    });
    const title = await publishOne(app);
    expect(await title()).toBe("As written");
    expect((await app.inject({ method: "POST", url: "/api/forgetful" })).statusCode).toBe(200);
    expect(await title()).toBe("Changed behind the cache");
  });
});
