import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const bin = (name: string) => path.join(ROOT, "node_modules/.bin", name);

/** Runs a command to completion, inheriting the terminal; rejects on a non-zero exit. */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}, quiet = false): Promise<void> {
  return new Promise((resolve, reject) => {
    const stdio = quiet ? "ignore" : "inherit";
    const child = spawn(command, args, { cwd: ROOT, stdio, env: { ...process.env, ...env } });
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(command)} ${args.join(" ")} failed (${signal ?? code})`)),
    );
  });
}

/** Starts the line a scratch server prints once it serves, with what it serves as JSON after it. */
export const READY_MARK = "penchain-ready ";

/**
 * Runs `script --serve` (or another `mode`) in its own process (so a load generator does not share the server's event
 * loop) and resolves with the line it marks with READY_MARK, parsed as JSON: what the load needs to know.
 */
export function startServerProcess<T>(
  script: string,
  env: NodeJS.ProcessEnv = {},
  mode = "--serve",
): Promise<{ child: ChildProcess; info: T }> {
  const child = spawn(bin("tsx"), [script, mode], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    let buffer = "";
    // The server's own log lines share stdout: the line that says what it serves is marked.
    child.stdout?.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer
        .split("\n")
        .find((candidate, index, lines) => index < lines.length - 1 && candidate.startsWith(READY_MARK));
      if (line) resolve({ child, info: JSON.parse(line.slice(READY_MARK.length)) as T });
    });
    child.once("exit", (code) => reject(new Error(`${path.basename(script)} exited (${code}) before serving`)));
  });
}
