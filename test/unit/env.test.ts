import { describe, expect, it } from "vitest";
import { EnvError, loadConfig } from "../../src/server/env.ts";

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof EnvError) return error.problems;
    throw error;
  }
  return [];
};

describe("loadConfig", () => {
  it("runs locally with no configuration at all", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: "development",
      port: 3000,
      host: "127.0.0.1",
      dataDir: "./data",
      publicUrl: "http://localhost:3000",
      rpcUrl: "http://127.0.0.1:8545",
      minConfirmations: 1,
      databaseUrl: undefined,
      s3: null,
      rateLimitFactor: 1,
    });
    expect(config.chain.id).toBe(31337);
    // The local fee contract comes from the generated deployments file.
    expect(config.feeRecipient).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it("names every bad key at once", () => {
    const problems = problemsOf({
      PORT: "eighty",
      DATABASE_URL: "mysql://localhost/db",
      SMTP_URL: "http://mail",
      MIN_CONFIRMATIONS: "0",
      FEE_RECIPIENT: "0x123",
      RATE_LIMIT_FACTOR: "0",
    });
    expect(problems.map((problem) => problem.split(" ")[0])).toEqual(
      expect.arrayContaining([
        "PORT",
        "DATABASE_URL",
        "SMTP_URL",
        "MIN_CONFIRMATIONS",
        "FEE_RECIPIENT",
        "RATE_LIMIT_FACTOR",
      ]),
    );
  });

  it.each([
    ["missing", {}],
    ["short", { JWT_SECRET: "abc123" }],
    ["well known", { JWT_SECRET: "changeme-changeme-changeme-changeme-1234567890" }],
    ["low entropy", { JWT_SECRET: "a".repeat(64) }],
  ])("refuses a %s JWT_SECRET in production", (_label, env) => {
    expect(problemsOf({ NODE_ENV: "production", ...env })).toEqual([expect.stringMatching(/^JWT_SECRET /)]);
  });

  it("accepts a strong JWT_SECRET in production", () => {
    const config = loadConfig({ NODE_ENV: "production", JWT_SECRET: "q8Zr3LkP0vX9mWc2Tn6Yb4Hs7Jd1Fg5A-_eRuIoQ" });
    expect(config.env).toBe("production");
  });

  it("needs all of bucket and keys once any S3 setting is given", () => {
    expect(problemsOf({ S3_BUCKET: "uploads" })).toEqual([
      expect.stringMatching(/^S3_ACCESS_KEY_ID /),
      expect.stringMatching(/^S3_SECRET_ACCESS_KEY /),
    ]);
    const config = loadConfig({ S3_BUCKET: "uploads", S3_ACCESS_KEY_ID: "id", S3_SECRET_ACCESS_KEY: "secret" });
    expect(config.s3).toMatchObject({ bucket: "uploads", region: "us-east-1" });
  });

  it("needs FEE_RECIPIENT on a chain without a recorded deployment", () => {
    expect(problemsOf({ CHAIN_ID: "11155111" })).toEqual([expect.stringMatching(/^FEE_RECIPIENT .*11155111/)]);
    const config = loadConfig({ CHAIN_ID: "11155111", FEE_RECIPIENT: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8" });
    expect(config.feeRecipient).toBe("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    expect(config.chain.name).toBe("Sepolia");
    expect(config.explorerUrl).toBe("https://sepolia.etherscan.io");
  });

  it("refuses FEDERATION=on in production, which would fetch private addresses", () => {
    const secret = { NODE_ENV: "production", JWT_SECRET: "q8Zr3LkP0vX9mWc2Tn6Yb4Hs7Jd1Fg5A-_eRuIoQ" };
    expect(problemsOf({ ...secret, FEDERATION: "on" })).toEqual([expect.stringMatching(/^FEDERATION /)]);
    const federating = loadConfig({ ...secret, FEDERATION: "auto", PUBLIC_URL: "https://blog.example.org" });
    expect(federating.federation).toMatchObject({ allowPrivateAddress: false });
    expect(loadConfig({ FEDERATION: "on" }).federation).toMatchObject({ allowPrivateAddress: true });
  });

  it("trims a trailing slash from PUBLIC_URL", () => {
    expect(loadConfig({ PUBLIC_URL: "https://blog.example.org/" }).publicUrl).toBe("https://blog.example.org");
  });
});
