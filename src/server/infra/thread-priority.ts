import fs from "node:fs";
import os from "node:os";

/** What libuv names the threads of its pool, where sharp encodes images (and fs, zlib and crypto do their work). */
const POOL_THREAD = "libuv-worker";

/**
 * Sets the OS priority (nice value) of libuv's pool threads, so that long work there (an import's images) yields the
 * cores to the main thread, which answers requests. Linux only (the threads are found under /proc); elsewhere, or
 * without the right to raise a priority again, it does nothing. Answers whether it could.
 */
export function setPoolPriority(nice: number): boolean {
  try {
    let set = false;
    for (const task of fs.readdirSync("/proc/self/task")) {
      if (fs.readFileSync(`/proc/self/task/${task}/comm`, "utf8").trim() !== POOL_THREAD) continue;
      os.setPriority(Number(task), nice);
      set = true;
    }
    return set;
  } catch {
    return false;
  }
}
