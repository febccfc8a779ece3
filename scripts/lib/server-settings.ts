// How the server's process runs (decision 020): a V8 flag and glibc's malloc settings that hold its memory down.
// Both must be given before the process starts, so `npm start` runs itself again with them (`runWithServerSettings`)
// and the benchmarks start their servers with them (`run.ts`'s `startServerProcess`).

/** The old generation grows by half of what survives a collection, rather than by up to four times as much. */
export const SERVER_NODE_FLAGS = ["--heap-growing-percent=50"];

/**
 * Blocks over 1 MiB (zlib's, Argon2's, sharp's) are mapped for each use and given back when freed, rather than kept
 * in the arenas of the threads that freed them.
 */
const GLIBC_TUNABLES = "glibc.malloc.mmap_threshold=1048576:glibc.malloc.trim_threshold=1048576";

/** `env` with the server's malloc settings; tunables already set there come after, so they win. */
export function serverEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, GLIBC_TUNABLES: [GLIBC_TUNABLES, env.GLIBC_TUNABLES].filter(Boolean).join(":") };
}

/** Replaces this process (same id, same terminal) with itself run with the server's settings, unless it has them. */
export function runWithServerSettings() {
  if (SERVER_NODE_FLAGS.every((flag) => process.execArgv.includes(flag))) return;
  // Where Node cannot replace a process (Windows), it runs as it is.
  if (typeof process.execve !== "function") return;
  process.execve(
    process.execPath,
    [process.execPath, ...SERVER_NODE_FLAGS, ...process.execArgv, ...process.argv.slice(1)],
    serverEnvironment(process.env),
  );
}
