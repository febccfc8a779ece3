import crypto from "node:crypto";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMITS } from "../../../src/server/plugins/rate-limits.ts";
import { buildTestApp } from "../../support/app.ts";
import { pgliteTarget } from "../../support/databases.ts";

const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)("rate limits shared through Redis", () => {
  it("counts attempts on two instances together", async () => {
    const env = { REDIS_URL: redisUrl as string };
    const [one, two] = [
      await buildTestApp(await pgliteTarget.open(), { env, rateLimits: {} }),
      await buildTestApp(await pgliteTarget.open(), { env, rateLimits: {} }),
    ];
    const email = `victim-${crypto.randomBytes(6).toString("hex")}@example.com`;
    // Counters outlive a run in the shared Redis: a fresh documentation address keeps runs apart.
    const remoteAddress = `198.51.100.${crypto.randomInt(1, 255)}`;
    const redis = new Redis(redisUrl as string);
    await redis.del(`penchain-rl:login:${remoteAddress}`);
    const codes: number[] = [];
    for (let attempt = 0; attempt <= DEFAULT_RATE_LIMITS.loginAccount.max; attempt++) {
      const app = attempt % 2 === 0 ? one : two;
      const payload = { email, password: "wrong password" };
      codes.push((await app.inject({ method: "POST", url: "/api/users/login", payload, remoteAddress })).statusCode);
    }
    expect(codes.slice(0, -1).every((code) => code === 401)).toBe(true);
    expect(codes.at(-1)).toBe(429);
    // Keys name the limit and what it counts.
    expect(await redis.exists(`penchain-rl:loginAccount:${email}`, `penchain-rl:login:${remoteAddress}`)).toBe(2);
    await redis.quit();
    await one.close();
    await two.close();
  });
});
