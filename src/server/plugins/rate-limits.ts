import fastifyRateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Redis } from "ioredis";

export interface Limit {
  max: number;
  /** Milliseconds. */
  timeWindow: number;
}

const MINUTE = 60_000;

/** Per window; keys are named where each limit is used. */
export const DEFAULT_RATE_LIMITS = {
  login: { max: 10, timeWindow: 15 * MINUTE }, // per IP and e-mail
  register: { max: 10, timeWindow: 60 * MINUTE }, // per IP
  passwordReset: { max: 5, timeWindow: 15 * MINUTE }, // per IP
  verification: { max: 5, timeWindow: 15 * MINUTE }, // per user
  siwe: { max: 30, timeWindow: MINUTE }, // per IP
  mailSender: { max: 10, timeWindow: 60 * MINUTE }, // per sender
  mailRecipient: { max: 20, timeWindow: 60 * MINUTE }, // per recipient
} satisfies Record<string, Limit>;
export type RateLimits = typeof DEFAULT_RATE_LIMITS;

/** Every limit's allowance times `factor` (at least 1 request per window). */
export const scaleLimits = (limits: RateLimits, factor: number): RateLimits =>
  Object.fromEntries(
    Object.entries(limits).map(([name, limit]) => [
      name,
      { ...limit, max: Math.max(1, Math.round(limit.max * factor)) },
    ]),
  ) as RateLimits;

declare module "fastify" {
  interface FastifyInstance {
    limits: RateLimits;
  }
}

/** In memory by default; shared through Redis when REDIS_URL is set, so every instance counts together. */
export async function registerRateLimits(app: FastifyInstance, redisUrl: string | undefined, limits: RateLimits) {
  const redis = redisUrl
    ? new Redis(redisUrl, { connectTimeout: 1000, maxRetriesPerRequest: 1, lazyConnect: false })
    : undefined;
  if (redis) app.addHook("onClose", async () => void redis.quit());
  await app.register(fastifyRateLimit, {
    global: false,
    redis,
    nameSpace: "penchain-rl-",
    // A limiter outage must not lock everyone out.
    skipOnError: true,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Too many requests. Please try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
    }),
  });
  app.decorate("limits", limits);
}

/** A preHandler limiting by `key(request)`. The plugin runs only the first limiter of a request: one per route. */
export function limitBy(app: FastifyInstance, name: keyof RateLimits, key: (request: FastifyRequest) => string) {
  const limit = app.limits[name];
  return app.rateLimit({ ...limit, keyGenerator: (request) => `${name}:${key(request)}` });
}
