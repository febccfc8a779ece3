import type { FastifyInstance, FastifyRequest } from "fastify";
import ipaddr from "ipaddr.js";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { HttpError } from "../http-error.ts";
import { connectRedis } from "../infra/redis.ts";
import { countsAgainstLimit } from "./route-marks.ts";

export interface Limit {
  max: number;
  /** Milliseconds. */
  timeWindow: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/**
 * Per window. Sign-in limits count by address across accounts (spraying) and by account across addresses (one
 * account guessed from many); write limits follow Forem's defaults.
 */
export const DEFAULT_RATE_LIMITS = {
  login: { max: 20, timeWindow: 15 * MINUTE }, // per address, whatever the e-mail
  loginAccount: { max: 10, timeWindow: 15 * MINUTE }, // per e-mail, whatever the address
  register: { max: 10, timeWindow: 60 * MINUTE }, // per address
  passwordReset: { max: 5, timeWindow: 15 * MINUTE }, // per address
  passwordResetAccount: { max: 3, timeWindow: 15 * MINUTE }, // per e-mail
  verification: { max: 5, timeWindow: 15 * MINUTE }, // per user
  siwe: { max: 30, timeWindow: MINUTE }, // per address
  mailSender: { max: 10, timeWindow: 60 * MINUTE }, // per sender
  mailRecipient: { max: 20, timeWindow: 60 * MINUTE }, // per recipient, counted in the outbox
  posts: { max: 9, timeWindow: 30 * SECOND }, // new posts and edits, per user
  comments: { max: 9, timeWindow: 30 * SECOND }, // per user
  reactions: { max: 10, timeWindow: 30 * SECOND }, // per user
  uploads: { max: 9, timeWindow: 30 * SECOND }, // profile photos, per user
  accountChanges: { max: 10, timeWindow: 15 * MINUTE }, // profile, e-mail, blocks, exports, imports; per user (a rename re-indexes their posts)
  follows: { max: 30, timeWindow: MINUTE }, // follow and unfollow, per user
  paymentChecks: { max: 10, timeWindow: MINUTE }, // on-chain verifications (featured posts, tips), per user
  search: { max: 60, timeWindow: MINUTE }, // searches the read cache had no answer for, per address
  unsubscribes: { max: 30, timeWindow: 15 * MINUTE }, // unsubscribe links used (and undone), per address
  streams: { max: 30, timeWindow: MINUTE }, // live notification streams opened, per user
  inbox: { max: 600, timeWindow: MINUTE }, // activities from the fediverse, per sending server's address
  fediverseReads: { max: 120, timeWindow: MINUTE }, // a post's replies from the fediverse, per address
  notificationWrites: { max: 60, timeWindow: MINUTE }, // marking read and changing settings, per user
  replyModeration: { max: 60, timeWindow: MINUTE }, // approving and removing replies from the fediverse, per user
  reports: { max: 10, timeWindow: 15 * MINUTE }, // reports filed, per user
  appeals: { max: 10, timeWindow: 15 * MINUTE }, // appeals sent, per user (or per address, from a mail's link)
  moderation: { max: 120, timeWindow: MINUTE }, // moderators' actions, per moderator
  publicLog: { max: 60, timeWindow: MINUTE }, // the moderation log's pages and export, per address
  beacons: { max: 120, timeWindow: MINUTE }, // reads the app reports for the stats, per address
  stats: { max: 120, timeWindow: MINUTE }, // stats pages and their CSV, per user
  subscriptions: { max: 10, timeWindow: 60 * MINUTE }, // "Subscribe by e-mail" sent, per address
  subscriptionAddress: { max: 3, timeWindow: 60 * MINUTE }, // per e-mail typed: nobody mails a stranger over and over
  apiTokens: { max: 300, timeWindow: MINUTE }, // every API or MCP call made with a personal access token, per token
  webhooks: { max: 60, timeWindow: MINUTE }, // webhooks created, changed, tested or redelivered, per user
} satisfies Record<string, Limit>;
export type RateLimits = typeof DEFAULT_RATE_LIMITS;
export type LimitName = keyof RateLimits;

/** Every limit's allowance times `factor` (at least 1 request per window). */
export const scaleLimits = (limits: RateLimits, factor: number): RateLimits =>
  Object.fromEntries(
    Object.entries(limits).map(([name, limit]) => [
      name,
      { ...limit, max: Math.max(1, Math.round(limit.max * factor)) },
    ]),
  ) as RateLimits;

export interface Limiter {
  limits: RateLimits;
  /** Counts one request against `name` for `key`; over the limit it throws 429 with Retry-After. */
  hit(name: LimitName, key: string): Promise<void>;
  /** Like `hit`, and tells what is left, for answers that advertise the limit; over it the 429 says the same. */
  take(name: LimitName, key: string, policy?: string): Promise<Allowance>;
}

/** What is left of one limit for one key. */
export interface Allowance {
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  resetSeconds: number;
  windowSeconds: number;
}

declare module "fastify" {
  interface FastifyInstance {
    limiter: Limiter;
  }
}

/**
 * Counters live in memory by default and in Redis when REDIS_URL is set, so every instance counts together. If
 * Redis fails, each instance keeps counting in memory rather than letting everything through or locking everyone out.
 */
export function registerRateLimits(app: FastifyInstance, redisUrl: string | undefined, limits: RateLimits) {
  const redis = redisUrl
    ? connectRedis(redisUrl, { connectTimeout: 1000, maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : undefined;
  if (redis) {
    redis.on("error", (error) => app.log.warn({ err: error }, "rate-limit store unavailable; counting in memory"));
    app.addHook("onClose", async () => void (await redis.quit().catch(() => redis.disconnect())));
  }
  const limiters = Object.fromEntries(
    Object.entries(limits).map(([name, limit]) => {
      const options = { keyPrefix: `penchain-rl:${name}`, points: limit.max, duration: limit.timeWindow / 1000 };
      const memory = new RateLimiterMemory(options);
      return [
        name,
        redis ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: memory }) : memory,
      ];
    }),
  ) as unknown as Record<LimitName, RateLimiterAbstract>;

  app.decorate("limiter", {
    limits,
    async hit(name, key) {
      try {
        await limiters[name].consume(key);
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
        throw new HttpError(429, `Too many requests. Please try again in ${seconds} seconds.`, {
          "retry-after": String(seconds),
        });
      }
    },
    async take(name, key, policy = name) {
      const limit = limits[name].max;
      const windowSeconds = Math.round(limits[name].timeWindow / 1000);
      const allowance = (res: RateLimiterRes, remaining: number) => ({
        limit,
        remaining,
        resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
        windowSeconds,
      });
      try {
        const res = await limiters[name].consume(key);
        return allowance(res, res.remainingPoints);
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        const left = allowance(error, 0);
        throw new HttpError(429, `Too many requests. Please try again in ${left.resetSeconds} seconds.`, {
          "retry-after": String(left.resetSeconds),
          ...rateLimitHeaders(policy, left),
        });
      }
    },
  } satisfies Limiter);
}

/**
 * The IETF fields (draft-ietf-httpapi-ratelimit-headers-09): the policy, its quota and window, then what is left of
 * it and when it resets.
 */
export function rateLimitHeaders(policy: string, allowance: Allowance): Record<string, string> {
  return {
    "ratelimit-policy": `"${policy}";q=${allowance.limit};w=${allowance.windowSeconds}`,
    ratelimit: `"${policy}";r=${allowance.remaining};t=${allowance.resetSeconds}`,
  };
}

/** A preHandler counting `name` by `key(request)`; a route may list several, each counts on its own. */
export function limitBy(app: FastifyInstance, name: LimitName, key: (request: FastifyRequest) => string) {
  return countsAgainstLimit(async (request: FastifyRequest) => app.limiter.hit(name, key(request)));
}

/**
 * The key a client address is counted under: an IPv4 address as it is, an IPv6 address by its /64 network (a home
 * or a server is given a whole /64, so counting single addresses would let one client rotate through billions),
 * and an IPv4-mapped IPv6 address as its IPv4 address.
 */
export function addressKeyOf(ip: string): string {
  if (CANONICAL_IPV4.test(ip)) return ip;
  const known = addressKeys.get(ip);
  if (known !== undefined) return known;
  if (addressKeys.size >= ADDRESS_KEYS_MAX) addressKeys.delete(addressKeys.keys().next().value as string);
  const key = parsedAddressKey(ip);
  addressKeys.set(ip, key);
  return key;
}

/** Dotted decimal with no leading zeros: already its own key (every request asks; parsing one costs ~0.8 µs). */
const CANONICAL_IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
/** Other addresses' keys, lately seen (parsing an IPv6 address costs ~3 µs). */
const addressKeys = new Map<string, string>();
const ADDRESS_KEYS_MAX = 10_000;

/** The key as ipaddr.js parses the address (any form a forwarded header may carry). */
export function parsedAddressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === "ipv4") return address.toString();
  const network = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${network.join(":")}::/64`;
}
export const addressKey = (request: FastifyRequest) => addressKeyOf(request.ip);

/** The signed-in user's id (routes guarded by requireUser), else the address. */
export const byUser = (request: FastifyRequest) => request.user?.id ?? `ip:${addressKey(request)}`;
export const byAddress = addressKey;
