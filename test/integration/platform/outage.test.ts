import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratchPostgres } from "../../../scripts/lib/scratch-postgres.ts";
import type { App } from "../../../src/server/app.ts";
import { openDatabase } from "../../../src/server/db/client.ts";
import { buildTestApp } from "../../support/app.ts";
import { startTcpProxy } from "../../support/tcp-proxy.ts";
import { bearer, signUp } from "../../support/users.ts";

const baseUrl = process.env.TEST_DATABASE_URL;

describe.runIf(baseUrl)("a database that goes away and comes back", () => {
  let app: App;
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const scratch = await scratchPostgres(baseUrl as string, "penchain_outage");
    drop = scratch.drop;
    const direct = new URL(scratch.url);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(scratch.url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const database = await openDatabase({ url: viaProxy.toString() });
    await database.migrate();
    app = await buildTestApp(database);
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await drop?.();
  });

  it("answers 503 with Retry-After and a clear message on every call while it is down, then recovers", async () => {
    const user = await signUp(app);
    const calls = [
      { method: "GET", url: "/api/posts?limit=7" },
      { method: "GET", url: "/api/category" },
      { method: "GET", url: `/api/users/profile/${user.id}`, headers: bearer(user) },
      { method: "POST", url: "/api/users/login", payload: { email: user.email, password: user.password } },
      {
        method: "POST",
        url: "/api/users/register",
        payload: { ...user, email: "new@example.com", password: "long enough" },
      },
      { method: "POST", url: "/api/comments", payload: { postId: user.id, description: "hi" }, headers: bearer(user) },
    ] as const;
    expect((await app.inject({ method: "GET", url: "/api/posts" })).statusCode).toBe(200);

    await proxy.cut();
    // A page read just before keeps being served from the cache (for at most 5 s); everything else is 503.
    expect((await app.inject({ method: "GET", url: "/api/posts" })).statusCode).toBe(200);
    for (const call of calls) {
      const response = await app.inject(call);
      expect(response.statusCode, call.url).toBe(503);
      expect(response.headers["retry-after"], call.url).toMatch(/^\d+$/);
      expect(response.json(), call.url).toEqual({
        message: "The database is unavailable right now. Please try again in a moment.",
      });
    }
    expect((await app.inject({ method: "GET", url: "/api/health" })).json().database).toBe("down");

    await proxy.restore();
    const back = await app.inject(calls[0]);
    expect(back.statusCode).toBe(200);
    expect((await app.inject(calls[2])).statusCode).toBe(200);
  });
});
