import { spawn } from "node:child_process";
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
