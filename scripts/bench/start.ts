// Start-up, for `npm run bench` (`-- --start-only` alone): how long `npm start` takes until it answers its home page,
// run as a user runs it. First as after a fresh clone and `npm install` (no build: the client is built, a chain
// started, the fee contract deployed, a new database migrated), then a second start of the same folder (everything
// there). Issue 40's targets: 20 s and 3 s.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { bin, freePort, ROOT } from "../lib/run.ts";

const FIRST_TARGET_S = 20;
const SECOND_TARGET_S = 3;

/** Seconds from `npm start`'s script starting until its home page answers 200; the running start is returned too. */
async function timedStart(dataDir: string): Promise<{ seconds: number; child: ChildProcess }> {
  const [port, chainPort] = [await freePort(), await freePort()];
  const begun = performance.now();
  const child = spawn(bin("node"), ["scripts/start.ts"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      // As npm runs it: the project's own binaries (Node 22, hardhat) first.
      PATH: `${path.dirname(bin("node"))}${path.delimiter}${process.env.PATH ?? ""}`,
      PORT: String(port),
      CHAIN_PORT: String(chainPort),
      DATA_DIR: dataDir,
    },
  });
  // Kept to say why, should it stop before it serves.
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let running = true;
  const exited = new Promise((_, reject) =>
    child.once("exit", (code) => {
      running = false;
      reject(new Error(`npm start exited (${code}):\n${output}`));
    }),
  );
  const answered = (async () => {
    while (running) {
      const status = await fetch(`http://127.0.0.1:${port}/`).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 200) return (performance.now() - begun) / 1000;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return Number.NaN;
  })();
  return { seconds: await Promise.race([answered, exited as Promise<never>]), child };
}

/** Ctrl-C, as a user stops it; resolves once every process it started is gone. */
const stop = (child: ChildProcess) =>
  new Promise((resolve) => {
    child.once("exit", resolve);
    child.kill("SIGINT");
  });

export async function benchStart() {
  const misses: string[] = [];
  console.log("\nStart-up: `npm start` until its home page answers");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-start-"));
  try {
    // A fresh clone has no build: the first start makes it.
    fs.rmSync(path.join(ROOT, "dist"), { recursive: true, force: true });
    const first = await timedStart(dataDir);
    await stop(first.child);
    const second = await timedStart(dataDir);
    await stop(second.child);
    console.log(
      `first start after install (builds the client, a new chain and database): ${first.seconds.toFixed(1)} s`,
    );
    console.log(`second start: ${second.seconds.toFixed(1)} s`);
    if (first.seconds > FIRST_TARGET_S)
      misses.push(`the first start took ${first.seconds.toFixed(1)} s, over ${FIRST_TARGET_S} s`);
    if (second.seconds > SECOND_TARGET_S)
      misses.push(`a second start took ${second.seconds.toFixed(1)} s, over ${SECOND_TARGET_S} s`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return misses;
}
