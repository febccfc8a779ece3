import net from "node:net";
import { isAddress } from "viem";
import { z } from "zod";
import { LOCAL_CHAIN_ID } from "#shared/constants.ts";
import { featuredFeeDeployments } from "#shared/contracts/featured-fee.ts";

/** The environment's variables, each with its default and its check; `env.ts` turns them into the app's config. */

const optionalUrl = (protocols: RegExp, hint: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => value || undefined)
    .refine((value) => value === undefined || (URL.canParse(value) && protocols.test(new URL(value).protocol)), {
      message: `must be a ${hint} URL`,
    });

/** proxy-addr's names for address ranges, usable in TRUST_PROXY beside addresses and CIDR ranges. */
const PROXY_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);
const isProxyEntry = (entry: string) => {
  const [address, bits, ...rest] = entry.split("/");
  if (PROXY_RANGES.has(entry)) return true;
  if (rest.length > 0 || !address || !net.isIP(address)) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (net.isIPv4(address) ? 32 : 128));
};

/**
 * Whom to believe about the client's address: nobody (default), the nearest N proxies (a hop count), or proxies at
 * the listed addresses and ranges. Anything else would let clients pick their own address and escape every limit.
 */
const trustProxySchema = z
  .string()
  .trim()
  .default("")
  .transform((value, ctx): false | number | string[] => {
    if (value === "" || value === "false" || value === "0") return false;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(",").map((entry) => entry.trim());
    const bad = entries.filter((entry) => !isProxyEntry(entry));
    if (bad.length > 0) {
      ctx.addIssue({
        code: "custom",
        message: `must be a hop count or a comma-separated list of addresses, CIDR ranges or loopback/linklocal/uniquelocal (not ${bad.join(", ")})`,
      });
      return z.NEVER;
    }
    return entries;
  });

const WEAK_SECRETS = /^(secret|changeme|change-me|password|jwt[-_]?secret|test|dev)/i;

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    HOST: z.string().default("127.0.0.1"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    DATA_DIR: z.string().default("./data"),
    PUBLIC_URL: optionalUrl(/^https?:$/, "http(s)"),
    DATABASE_URL: optionalUrl(/^postgres(ql)?:$/, "postgres://"),
    SMTP_URL: optionalUrl(/^smtps?:$/, "smtp:// or smtps://"),
    MAIL_FROM: z.string().default("Penchain <no-reply@penchain.local>"),
    /** How long a mail being sent belongs to one instance (an instance that dies mid-send frees it after this). */
    MAIL_LEASE_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(120_000),
    JWT_SECRET: z.string().optional(),
    CHAIN_ID: z.coerce.number().int().positive().default(LOCAL_CHAIN_ID),
    RPC_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).default("http://127.0.0.1:8545"),
    /** The RPC URL handed to wallets, when browsers reach the chain by another address than the server. */
    PUBLIC_RPC_URL: optionalUrl(/^https?:$/, "http(s)"),
    FEE_RECIPIENT: z
      .string()
      .optional()
      .refine((value) => !value || isAddress(value), { message: "must be an 0x address with a valid checksum" }),
    MIN_CONFIRMATIONS: z.coerce.number().int().min(1).max(1000).default(1),
    /** Confirmations after which a reorg is not expected; accepted payments are re-checked until then. */
    FINALITY_CONFIRMATIONS: z.coerce.number().int().min(1).max(10_000).default(12),
    /** How often each instance looks for scheduled posts that are due. */
    PUBLISH_CHECK_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
    NEW_ACCOUNT_POSTS_PER_DAY: z.coerce.number().int().min(0).max(10_000).default(3),
    // How long a cached public answer lives at most: how late a view count, or another instance's write without
    // Redis, may show.
    READ_CACHE_MAX_AGE_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
    EXPLORER_URL: optionalUrl(/^https?:$/, "http(s)"),
    S3_ENDPOINT: optionalUrl(/^https?:$/, "http(s)"),
    S3_BUCKET: z.string().optional(),
    S3_REGION: z.string().default("us-east-1"),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    REDIS_URL: optionalUrl(/^rediss?:$/, "redis://"),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /** Scales every rate limit's allowance (2 doubles them), e.g. for many users behind one address. */
    RATE_LIMIT_FACTOR: z.coerce.number().positive().max(10_000).default(1),
    TRUST_PROXY: trustProxySchema,
    /** The whole request, body included, must arrive within this; slow clients cannot hold a socket. */
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
    /**
     * ActivityPub: `auto` federates when PUBLIC_URL is a public https origin; `on` also on a local or
     * http address (tests, trials: it then fetches private addresses too, so never in production); `off` never.
     */
    FEDERATION: z.enum(["auto", "on", "off"]).default("auto"),
    /** Reading stats (services/stats/): `off` records no read at all; the stats screens then show what was recorded. */
    STATS: z.enum(["on", "off"]).default("on"),
    /** How long an activity being delivered or handled belongs to one instance (freed after this if it dies). */
    FEDERATION_LEASE_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(30_000),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production") {
      const secret = env.JWT_SECRET ?? "";
      if (secret.length < 32 || new Set(secret).size < 12 || WEAK_SECRETS.test(secret)) {
        ctx.addIssue({
          code: "custom",
          path: ["JWT_SECRET"],
          message: "is required in production: at least 32 random characters (e.g. `openssl rand -base64 48`)",
        });
      }
    }
    if (env.NODE_ENV === "production" && env.FEDERATION === "on") {
      ctx.addIssue({
        code: "custom",
        path: ["FEDERATION"],
        message: "on is for tests and trials (it fetches private addresses); use auto with a public https PUBLIC_URL",
      });
    }
    const s3 = [env.S3_BUCKET, env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY];
    if (s3.some(Boolean) && !s3.every(Boolean)) {
      for (const key of ["S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const) {
        if (!env[key]) ctx.addIssue({ code: "custom", path: [key], message: "is required when any S3_* is set" });
      }
    }
    if (!env.FEE_RECIPIENT && !featuredFeeDeployments[env.CHAIN_ID]) {
      ctx.addIssue({
        code: "custom",
        path: ["FEE_RECIPIENT"],
        message: `is required: no FeaturedFee deployment is recorded for CHAIN_ID ${env.CHAIN_ID}`,
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.problems = problems;
  }
}

/** An origin the fediverse can reach: https, and not a loopback, private or reserved (`.local`, `.test`) name. */
export function isPublicOrigin(origin: string): boolean {
  const url = new URL(origin);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (url.protocol !== "https:") return false;
  const ipVersion = net.isIP(host);
  if (ipVersion === 4) return !/^(127\.|10\.|192\.168\.|169\.254\.|0\.|172\.(1[6-9]|2\d|3[01])\.)/.test(host);
  if (ipVersion === 6) return !/^(::1?$|f[cd]|fe80)/i.test(host);
  return host.includes(".") && !/\.(localhost|local|test|internal|lan|home|example|invalid)$/.test(host);
}
