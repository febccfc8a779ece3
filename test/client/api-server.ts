import { type ChildProcess, spawn } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { Session } from "#shared/schemas/session.ts";
import { buildRegistration } from "../support/users.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * Runs the real API in its own Node process for the file's tests. The browser would resolve the client's relative
 * `/api/...` URLs against the page; Node's fetch needs absolute ones, so they are resolved against this server.
 */
export function withApiServer() {
  let child: ChildProcess | undefined;
  let url = "";
  const browserFetch = globalThis.fetch;
  beforeAll(async () => {
    child = spawn(path.join(ROOT, "node_modules/.bin/tsx"), ["test/support/serve-api.ts"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    url = await new Promise<string>((resolve, reject) => {
      child?.stdout?.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
      child?.once("exit", (code) => reject(new Error(`test API exited with ${code}`)));
    });
    globalThis.fetch = (input, init) =>
      browserFetch(typeof input === "string" && input.startsWith("/") ? `${url}${input}` : input, init);
  }, 60_000);
  afterAll(() => {
    globalThis.fetch = browserFetch;
    child?.kill("SIGTERM");
  });

  async function call<T>(method: string, route: string, body?: unknown, token?: string): Promise<T> {
    const response = await browserFetch(`${url}${route}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${route} failed: ${await response.text()}`);
    return (await response.json()) as T;
  }

  return {
    call,
    /** Registers and logs in a new user over HTTP. */
    async signUp(overrides: Parameters<typeof buildRegistration>[0] = {}) {
      const input = buildRegistration({
        email: `u-${crypto.randomBytes(5).toString("hex")}@example.com`,
        ...overrides,
      });
      await call("POST", "/api/users/register", input);
      const session = await call<Session>("POST", "/api/users/login", { email: input.email, password: input.password });
      return { ...session, password: input.password };
    },
  };
}
