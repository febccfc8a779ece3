import { createRequire } from "node:module";
import type { Redis, RedisOptions } from "ioredis";

/**
 * A Redis client for REDIS_URL. ioredis is loaded with the first one: a server without Redis (one instance) never
 * loads it.
 */
export function connectRedis(url: string, options: RedisOptions): Redis {
  const { Redis: Client } = createRequire(import.meta.url)("ioredis") as typeof import("ioredis");
  return new Client(url, options);
}
