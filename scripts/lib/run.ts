import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { SERVER_NODE_FLAGS, serverEnvironment } from "./server-settings.ts";

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
  // Under Node's own type stripping and with the server's settings, as `npm start` runs the server (tsx would add its
  // own memory and start-up).
  const child = spawn(
    bin("node"),
    [...SERVER_NODE_FLAGS, ...(process.env.SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? []), script, mode],
    {
      stdio: ["ignore", "pipe", "inherit"],
      env: serverEnvironment({ ...process.env, ...env }),
    },
  );
  return new Promise((resolve, reject) => {
    let buffer = "";
    let ready = false;
    // The server's own log lines share stdout: the line that says what it serves is marked; the rest are read
    // and dropped, as a terminal would show them.
    child.stdout?.on("data", (chunk: Buffer) => {
      if (ready) return;
      buffer += chunk.toString();
      const line = buffer
        .split("\n")
        .find((candidate, index, lines) => index < lines.length - 1 && candidate.startsWith(READY_MARK));
      if (!line) return;
      ready = true;
      buffer = "";
      resolve({ child, info: JSON.parse(line.slice(READY_MARK.length)) as T });
    });
    child.once("exit", (code) => reject(new Error(`${path.basename(script)} exited (${code}) before serving`)));
  });
}

/** A process's resident memory in MiB, as `ps` shows it (Linux). */
export function residentMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN);
  return Math.round(kib / 1024);
}

/** CPU time a process has used so far, user and system, in seconds (Linux: `/proc/<pid>/stat`, 100 ticks a second). */
export function cpuSeconds(pid: number): number {
  return statCpuSeconds(`/proc/${pid}/stat`);
}

/** CPU time a process's main thread (its event loop) has used so far, in seconds. */
export function mainThreadCpuSeconds(pid: number): number {
  return statCpuSeconds(`/proc/${pid}/task/${pid}/stat`);
}

function statCpuSeconds(file: string): number {
  const stat = fs.readFileSync(file, "utf8");
  // Fields after the command name (which may hold spaces, inside parentheses): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The answer to a GET exactly as it came over the wire (still compressed), with its headers. */
export function getRaw(url: string, headers: Record<string, string>) {
  return new Promise<{ body: Buffer; headers: http.IncomingHttpHeaders; status: number }>((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ body: Buffer.concat(chunks), headers: response.headers, status: response.statusCode ?? 0 }),
        );
      })
      .on("error", reject);
  });
}

/** A port nothing listens on at the moment, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
