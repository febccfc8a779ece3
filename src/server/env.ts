import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { type Chain, defineChain, extractChain, getAddress } from "viem";
import { LOCAL_CHAIN_ID } from "#shared/constants.ts";
import { featuredFeeDeployments } from "#shared/contracts/featured-fee.ts";
import { type Env, EnvError, envSchema, isPublicOrigin } from "./env-variables.ts";

export { EnvError };

/** The server's settings, resolved once from the environment. */
export interface AppConfig {
  env: Env["NODE_ENV"];
  host: string;
  port: number;
  dataDir: string;
  publicUrl: string;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  mailLeaseMs: number;
  jwtSecret: string | undefined;
  chain: Chain;
  rpcUrl: string;
  publicRpcUrl: string;
  feeRecipient: `0x${string}`;
  minConfirmations: number;
  finalityConfirmations: number;
  publishCheckMs: number;
  /** Posts an account younger than a day or unverified may publish in a day (spam defence). */
  newAccountPostsPerDay: number;
  readCacheMaxAgeMs: number;
  explorerUrl: string | null;
  s3: {
    endpoint: string | undefined;
    bucket: string;
    region: string;
    accessKeyId: string;
    secretAccessKey: string;
  } | null;
  redisUrl: string | undefined;
  logLevel: Env["LOG_LEVEL"];
  rateLimitFactor: number;
  trustProxy: false | number | string[];
  requestTimeoutMs: number;
  maxConnections: number;
  /** Whether reads are recorded for the stats (STATS). */
  stats: boolean;
  /** Null when the site does not federate. */
  federation: { allowPrivateAddress: boolean; leaseMs: number } | null;
  /** Webhooks may reach http and private addresses only where the site itself is on one (tests, a laptop). */
  webhooks: { allowPrivateAddress: boolean };
}

/** Hardhat's chain, as viem defines it. */
const hardhat = defineChain({
  id: LOCAL_CHAIN_ID,
  name: "Hardhat",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: ["http://127.0.0.1:8545"] } },
});

function chainById(id: number, rpcUrl: string): Chain {
  // Several dev chains share 31337; ours is Hardhat's. viem's table of every chain it knows (heavy to load) is
  // read only for another chain: required here, as configuration is read synchronously, and
  // from its ES module build, the one the rest of the server's viem is (`require` alone would pick a second copy,
  // viem's CommonJS build).
  if (id === hardhat.id) return hardhat;
  const viemChains = createRequire(import.meta.url)(fileURLToPath(import.meta.resolve("viem/chains")));
  const known = extractChain({ chains: Object.values(viemChains as Record<string, Chain>), id });
  if (known) return known;
  return {
    id,
    name: `Chain ${id}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  };
}

/** Parses the environment; every bad key is named in one error. */
export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new EnvError(parsed.error.issues.map((issue) => `${issue.path.join(".") || "environment"} ${issue.message}`));
  }
  const env = parsed.data;
  const chain = chainById(env.CHAIN_ID, env.RPC_URL);
  const recipient = env.FEE_RECIPIENT ?? featuredFeeDeployments[env.CHAIN_ID]?.address;
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    dataDir: env.DATA_DIR,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ""),
    databaseUrl: env.DATABASE_URL,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    mailLeaseMs: env.MAIL_LEASE_MS,
    jwtSecret: env.JWT_SECRET,
    chain,
    rpcUrl: env.RPC_URL,
    publicRpcUrl: env.PUBLIC_RPC_URL ?? env.RPC_URL,
    feeRecipient: getAddress(recipient as string),
    minConfirmations: env.MIN_CONFIRMATIONS,
    finalityConfirmations: Math.max(env.FINALITY_CONFIRMATIONS, env.MIN_CONFIRMATIONS),
    publishCheckMs: env.PUBLISH_CHECK_MS,
    newAccountPostsPerDay: env.NEW_ACCOUNT_POSTS_PER_DAY,
    readCacheMaxAgeMs: env.READ_CACHE_MAX_AGE_MS,
    explorerUrl: env.EXPLORER_URL ?? chain.blockExplorers?.default.url ?? null,
    s3: env.S3_BUCKET
      ? {
          endpoint: env.S3_ENDPOINT,
          bucket: env.S3_BUCKET,
          region: env.S3_REGION,
          accessKeyId: env.S3_ACCESS_KEY_ID as string,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY as string,
        }
      : null,
    redisUrl: env.REDIS_URL,
    logLevel: env.LOG_LEVEL,
    rateLimitFactor: env.RATE_LIMIT_FACTOR,
    trustProxy: env.TRUST_PROXY,
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    maxConnections: env.MAX_CONNECTIONS,
    stats: env.STATS === "on",
    federation: federationSettings(env),
    webhooks: { allowPrivateAddress: !(env.PUBLIC_URL !== undefined && isPublicOrigin(env.PUBLIC_URL)) },
  };
}

function federationSettings(env: Env): AppConfig["federation"] {
  if (env.FEDERATION === "off") return null;
  const publicOrigin = env.PUBLIC_URL !== undefined && isPublicOrigin(env.PUBLIC_URL);
  if (env.FEDERATION === "auto" && !publicOrigin) return null;
  return { allowPrivateAddress: !publicOrigin, leaseMs: env.FEDERATION_LEASE_MS };
}
