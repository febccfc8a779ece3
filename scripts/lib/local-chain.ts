import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { bin, ROOT } from "./run.ts";

export interface LocalChain {
  rpcUrl: string;
  /** False when a node was already listening there and is left running. */
  owned: boolean;
  /** Settles once the node answers (or fails to start). */
  ready: Promise<void>;
  stop(): Promise<void>;
}

async function chainIdAt(rpcUrl: string): Promise<number | null> {
  try {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    const { result } = (await response.json()) as { result?: string };
    return result ? Number(result) : null;
  } catch {
    return null;
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Whether anything accepts connections on 127.0.0.1:<port>: a socket's refusal, unlike `fetch`, loads nothing. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function answered(rpcUrl: string, child: ChildProcess, logDir: string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`hardhat node exited (${child.exitCode}); see ${path.join(logDir, "hardhat-node.log")}`);
    }
    if ((await chainIdAt(rpcUrl)) !== null) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stopChild(child);
  throw new Error(`hardhat node did not answer on ${rpcUrl} within 60 s`);
}

/**
 * Starts `hardhat node` on 127.0.0.1:<port> (its chatter goes to <logDir>/hardhat-node.log), or reuses one there.
 * Resolves as soon as the node is spawned, before the caller's event loop gets busy; `ready` once it answers.
 */
export async function startLocalChain(port: number, logDir: string): Promise<LocalChain> {
  const rpcUrl = `http://127.0.0.1:${port}`;
  if ((await listening(port)) && (await chainIdAt(rpcUrl)) !== null) {
    return { rpcUrl, owned: false, stop: async () => {}, ready: Promise.resolve() };
  }

  fs.mkdirSync(logDir, { recursive: true });
  const log = fs.openSync(path.join(logDir, "hardhat-node.log"), "w");
  // Started directly, not through npx, so the pid we stop is the node itself.
  const config = path.join(import.meta.dirname, "chain.config.ts");
  const child = spawn(bin("hardhat"), ["--config", config, "node", "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: ROOT,
    stdio: ["ignore", log, log],
    env: { ...process.env, HARDHAT_DISABLE_TELEMETRY: "true" },
  });
  fs.closeSync(log);
  return { rpcUrl, owned: true, stop: () => stopChild(child), ready: answered(rpcUrl, child, logDir) };
}
