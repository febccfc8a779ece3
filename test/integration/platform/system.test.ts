import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicConfigSchema } from "#shared/schemas/system.ts";
import type { Database } from "../../../src/server/db/client.ts";
import { buildTestApp, keepOpen } from "../../support/app.ts";
import { startTestChain } from "../../support/chain.ts";
import { databaseTargets, pgliteTarget } from "../../support/databases.ts";

describe.each(databaseTargets)("system routes on $name", (target) => {
  let database: Database;
  let chain: Awaited<ReturnType<typeof startTestChain>>;
  beforeAll(async () => {
    database = await target.open();
    chain = await startTestChain();
  });
  afterAll(async () => {
    await database.close();
    await chain.close();
  });
  const shared = () => keepOpen(database);

  it("GET /api/health is 200 when the database and the chain answer", async () => {
    const app = await buildTestApp(shared(), { env: { RPC_URL: chain.rpcUrl } });
    const response = await app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok", database: "ok", chain: "ok" });
    await app.close();
  });

  it("GET /api/health is 503 and names the chain when the RPC is unreachable", async () => {
    const app = await buildTestApp(shared());
    const response = await app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: "degraded", database: "ok", chain: "down" });
    await app.close();
  });

  it("GET /api/health is 503 when the RPC serves another chain id", async () => {
    const app = await buildTestApp(shared(), {
      env: { RPC_URL: chain.rpcUrl, CHAIN_ID: "1", FEE_RECIPIENT: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" },
    });
    const response = await app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(503);
    expect(response.json().chain).toBe("down");
    await app.close();
  });

  it("GET /api/health is 503 and names the database when it is closed", async () => {
    const lost = await target.open();
    await lost.close();
    const app = await buildTestApp({ ...lost, close: async () => {} }, { env: { RPC_URL: chain.rpcUrl } });
    const response = await app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: "degraded", database: "down", chain: "ok" });
    await app.close();
  });

  it("GET /api/config gives wallets the chain, the fee contract and the fee in wei", async () => {
    const app = await buildTestApp(shared(), {
      env: { RPC_URL: chain.rpcUrl, PUBLIC_RPC_URL: "https://rpc.example.org", MIN_CONFIRMATIONS: "3" },
    });
    const response = await app.inject({ method: "GET", url: "/api/config" });
    expect(response.statusCode).toBe(200);
    const body = publicConfigSchema.parse(response.json());
    expect(body).toEqual({
      chainId: 31337,
      chainName: "Hardhat",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrl: "https://rpc.example.org",
      feeRecipient: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      feeWei: "10000000000000000",
      minConfirmations: 3,
      explorerUrl: null,
    });
    await app.close();
  });
});

describe("errors, documentation and the web client", () => {
  let database: Database;
  beforeAll(async () => {
    database = await pgliteTarget.open();
  });
  afterAll(() => database.close());
  const shared = () => keepOpen(database);

  it("answers unknown API routes with a JSON 404", async () => {
    const app = await buildTestApp(shared());
    const response = await app.inject({ method: "GET", url: "/api/nothing-here?x=1" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: "Route GET /api/nothing-here not found" });
    await app.close();
  });

  it("answers malformed JSON with 400 and a message", async () => {
    const app = await buildTestApp(shared());
    app.post("/api/echo", async (request) => request.body);
    const response = await app.inject({
      method: "POST",
      url: "/api/echo",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: expect.any(String) });
    await app.close();
  });

  it("hides the text of unexpected errors behind a generic 500", async () => {
    const app = await buildTestApp(shared());
    app.get("/api/boom", async () => {
      throw new Error('duplicate key value violates unique constraint "users_email_lower_key"');
    });
    const response = await app.inject({ method: "GET", url: "/api/boom" });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toMatch(/constraint|users_email|stack|at /);
    expect(response.json()).toEqual({ message: "Something went wrong on our side. Please try again." });
    await app.close();
  });

  it("serves the OpenAPI document at /api/docs with the system calls", async () => {
    const app = await buildTestApp(shared());
    const response = await app.inject({ method: "GET", url: "/api/docs/json" });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    expect(paths).toEqual(expect.arrayContaining(["/api/health", "/api/config"]));
    await app.close();
  });

  it("sets security headers", async () => {
    const app = await buildTestApp(shared());
    const response = await app.inject({ method: "GET", url: "/api/config" });
    expect(response.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    await app.close();
  });

  it("sends a built asset only the security headers that apply to it, and every page all of them", async () => {
    const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-client-"));
    fs.writeFileSync(path.join(clientDir, "index.html"), "<!doctype html><title>client shell</title>");
    fs.mkdirSync(path.join(clientDir, "assets"));
    fs.writeFileSync(path.join(clientDir, "assets", "app-1a2b.js"), "export {};");
    const app = await buildTestApp(shared(), { clientDir });

    const asset = await app.inject({ method: "GET", url: "/assets/app-1a2b.js" });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["x-content-type-options"]).toBe("nosniff");
    expect(asset.headers["cross-origin-resource-policy"]).toBe("same-origin");
    // The page's referrer policy governs a module script's imports; the script needs none of its own.
    for (const documentOnly of [
      "content-security-policy",
      "x-frame-options",
      "cross-origin-opener-policy",
      "referrer-policy",
    ]) {
      expect(asset.headers[documentOnly]).toBeUndefined();
    }
    // Nothing under /assets/ is ever a page: an address there that names no file, or climbs out of the folder, is a
    // 404, not index.html without its headers.
    for (const url of ["/assets/none", "/assets/..%2findex.html", "/assets/..%2F..%2Fpackage.json"]) {
      const missing = await app.inject({ method: "GET", url, headers: { accept: "text/html" } });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.body, url).not.toContain("client shell");
    }
    // Dot segments are resolved before the path is read (as browsers do): the page they name has all its headers.
    for (const url of ["/assets/../index.html", "/assets/%2e%2e/index.html"]) {
      const page = await app.inject({ method: "GET", url, headers: { accept: "text/html" } });
      expect(page.body, url).toContain("client shell");
      expect(page.headers["content-security-policy"], url).toContain("script-src 'self'");
    }

    for (const url of ["/create-post", "/uploads/none.svg", "/api/config"]) {
      const response = await app.inject({ method: "GET", url, headers: { accept: "text/html" } });
      expect(response.headers["content-security-policy"], url).toContain("script-src 'self'");
      expect(response.headers["x-frame-options"], url).toBe("SAMEORIGIN");
    }
    await app.close();
    fs.rmSync(clientDir, { recursive: true, force: true });
  });

  it("serves index.html for client routes and files from /uploads", async () => {
    const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-client-"));
    fs.writeFileSync(path.join(clientDir, "index.html"), "<!doctype html><title>client shell</title>");
    const app = await buildTestApp(shared(), { clientDir });
    fs.writeFileSync(path.join(app.config.dataDir, "uploads", "a.txt"), "uploaded");

    const page = await app.inject({ method: "GET", url: "/posts/123", headers: { accept: "text/html" } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("client shell");
    expect(page.headers["cache-control"]).toBe("no-cache");

    // A screen's address is the app's page; an address with no screen is the same page, answered 404.
    for (const url of ["/settings/blocks", "/Settings", "/profile/x/", "/stats/posts/1?period=7d"]) {
      expect((await app.inject({ method: "GET", url })).statusCode, url).toBe(200);
    }
    for (const url of ["/nowhere", "/profile", "/profile/a/b", "/%3Cscript%3E", "/moderation/log/x"]) {
      const unknown = await app.inject({ method: "GET", url, headers: { accept: "text/html" } });
      expect(unknown.statusCode, url).toBe(404);
      expect(unknown.body).toContain("client shell");
    }

    const upload = await app.inject({ method: "GET", url: "/uploads/a.txt" });
    expect(upload.statusCode).toBe(200);
    expect(upload.body).toBe("uploaded");

    const missing = await app.inject({ method: "GET", url: "/uploads/none.png", headers: { accept: "text/html" } });
    expect(missing.statusCode).toBe(404);
    await app.close();
    fs.rmSync(clientDir, { recursive: true, force: true });
  });
});
