import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, expect, it } from "vitest";
import { freePort } from "../../../scripts/lib/run.ts";
import { SERVER_NODE_FLAGS, serverEnvironment } from "../../../scripts/lib/server-settings.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-start-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/** Starts still running when a test failed half-way: stopped after it, so no server outlives the run. */
const running = new Set<{ stop: () => Promise<number | null> }>();
afterEach(async () => {
  await Promise.all([...running].map((server) => server.stop()));
});

/** Runs `npm start`'s script as npm runs it (Node's own type stripping), until it serves; `stop()` is Ctrl-C. */
async function start(port: number, chainPort: number) {
  const child = spawn(path.join(ROOT, "node_modules/.bin/node"), ["scripts/start.ts"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), CHAIN_PORT: String(chainPort), DATA_DIR: dataDir, LOG_LEVEL: "warn" },
  });
  const run = { output: "" };
  child.stdout.on("data", (chunk) => {
    run.output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    run.output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const server = {
    pid: child.pid as number,
    get output() {
      return run.output;
    },
    stop: () => {
      running.delete(server);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
      return exited;
    },
  };
  running.add(server);
  await expect.poll(() => run.output, { timeout: 120_000, interval: 250 }).toContain("Press Ctrl-C to stop.");
  return server;
}

const built = ["dist/client/index.html", "dist/server/entry-server.js", "src/shared/contracts/featured-fee.ts"];
const modified = () => built.map((file) => fs.statSync(path.join(ROOT, file)).mtimeMs);

it("npm start serves the app with a chain and the fee contract, and Ctrl-C stops every process", async () => {
  const [port, chainPort] = [await freePort(), await freePort()];
  const server = await start(port, chainPort);
  const { output } = server;
  expect(output).toContain(`http://localhost:${port}`);
  expect(output).toMatch(/Fee contract\s+0x[0-9a-fA-F]{40}/);
  expect(output).toMatch(/Private key\s+0x[0-9a-f]{64}/);
  // The script ran itself again in place with the server's memory settings (decision 020).
  const cmdline = fs.readFileSync(`/proc/${server.pid}/cmdline`, "utf8").split("\0");
  expect(cmdline).toEqual(expect.arrayContaining([...SERVER_NODE_FLAGS, path.join(ROOT, "scripts/start.ts")]));
  // glibc cuts the variable short where it reads it in place, so its first setting is what shows.
  const tunables = serverEnvironment({}).GLIBC_TUNABLES as string;
  expect(fs.readFileSync(`/proc/${server.pid}/environ`, "utf8")).toContain(`GLIBC_TUNABLES=${tunables.split(":")[0]}`);

  const health = await fetch(`http://localhost:${port}/api/health`);
  expect(await health.json()).toEqual({ status: "ok", database: "ok", chain: "ok" });
  const home = await fetch(`http://localhost:${port}/`, { headers: { accept: "text/html" } });
  // The home page arrives rendered by the server, ready to hydrate.
  expect(await home.text()).toMatch(/<div id="root" data-hydrate[^>]*>.*Pen down your ideas by creating a blog/s);

  expect(await server.stop()).toBe(0);
  expect(await accepts(port)).toBe(false);
  expect(await accepts(chainPort)).toBe(false);
  expect(fs.existsSync(path.join(dataDir, "penchain.lock"))).toBe(false);
}, 180_000);

it("a start after a start builds nothing and writes nothing a build depends on", async () => {
  const before = modified();
  const [port, chainPort] = [await freePort(), await freePort()];
  const server = await start(port, chainPort);
  expect(server.output).not.toContain("Building the web client");
  expect((await fetch(`http://localhost:${port}/api/health`)).status).toBe(200);
  expect(await server.stop()).toBe(0);
  // The deploy step met a fresh chain and deployed again, at the recorded address: no source became newer.
  expect(modified()).toEqual(before);
}, 180_000);
