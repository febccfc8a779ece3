import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMITS } from "../../src/server/plugins/rate-limits.ts";
import { buildTestApp } from "../support/app.ts";
import { pgliteTarget } from "../support/databases.ts";

const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)("rate limits shared through Redis", () => {
  it("counts attempts on two instances together", async () => {
    const env = { REDIS_URL: redisUrl as string };
    const [one, two] = [
      await buildTestApp(await pgliteTarget.open(), { env, rateLimits: {} }),
      await buildTestApp(await pgliteTarget.open(), { env, rateLimits: {} }),
    ];
    const email = `victim-${crypto.randomBytes(6).toString("hex")}@example.com`;
    const codes: number[] = [];
    for (let attempt = 0; attempt <= DEFAULT_RATE_LIMITS.login.max; attempt++) {
      const app = attempt % 2 === 0 ? one : two;
      codes.push(
        (await app.inject({ method: "POST", url: "/api/users/login", payload: { email, password: "wrong password" } }))
          .statusCode,
      );
    }
    expect(codes.slice(0, -1).every((code) => code === 401)).toBe(true);
    expect(codes.at(-1)).toBe(429);
    await one.close();
    await two.close();
  });
});
