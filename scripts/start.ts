// `npm start`: builds the client when its sources changed, starts a local Hardhat node (unless RPC_URL is given),
// deploys FeaturedFee when the chain lacks it, migrates the database and serves everything on one origin.
// `npm run dev` (--dev): the same, with the client served by Vite's dev server and hot reload.
// Only Node's own modules are imported up front: the chain starts first, and the rest loads while it does.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { isBuildOf, recordBuildOf, sourcesDigest } from "./lib/client-build.ts";
import { DEV_ACCOUNT } from "./lib/dev-account.ts";
import { registerDrizzleResolve } from "./lib/drizzle-resolve.ts";
import { type LocalChain, startLocalChain } from "./lib/local-chain.ts";
import { bin, ROOT, run } from "./lib/run.ts";
import { runWithServerSettings } from "./lib/server-settings.ts";

// First of all: the server's memory settings can only be given to a process as it starts.
runWithServerSettings();

const dev = process.argv.includes("--dev");
const dataDir = path.resolve(process.env.DATA_DIR ?? "data");

async function buildClientIfNeeded() {
  const digest = sourcesDigest(ROOT);
  if (!isBuildOf(ROOT, digest)) {
    console.log("Building the web client…");
    // `npm run build`: the browser client, the server renderer of reader pages, compressed assets.
    await run("npm", ["run", "--silent", "build"]);
  }
  recordBuildOf(ROOT, digest);
}

function startVite(apiUrl: string): ChildProcess {
  return spawn(bin("vite"), ["--port", process.env.VITE_PORT ?? "5173", "--strictPort"], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, PENCHAIN_API_URL: apiUrl },
  });
}

function printBanner(lines: [string, string][]) {
  const width = Math.max(...lines.map(([label]) => label.length));
  console.log(`\n  Penchain is running\n`);
  for (const [label, value] of lines) console.log(`  ${label.padEnd(width)}  ${value}`);
  console.log("\n  Press Ctrl-C to stop.\n");
}

/**
 * The database, opened while the chain starts; undefined if that failed (a configuration the chain's address
 * completes, say), and the server opens it itself, saying what is wrong.
 */
function openDatabaseEarly<T>(open: () => Promise<T>): Promise<T | undefined> {
  try {
    return open().catch(() => undefined);
  } catch {
    return Promise.resolve(undefined);
  }
}

// Before the server's modules load (they are imported below, once the chain is on its way).
registerDrizzleResolve();

let chain: LocalChain | undefined;
try {
  // The chain starts in its own process while this one builds the client if it must (a first start after install),
  // loads the server and opens the database: none waits for another.
  // Spawned before the server's modules load: they keep the event loop busy for seconds.
  const local = process.env.RPC_URL
    ? undefined
    : await startLocalChain(Number(process.env.CHAIN_PORT ?? 8545), path.join(dataDir, "logs"));
  chain = local;
  const chainReady = (async () => {
    await local?.ready;
    const rpcUrl = process.env.RPC_URL ?? (local as LocalChain).rpcUrl;
    const { ensureFeaturedFee } = await import("./deploy.ts");
    return { rpcUrl, feeRecipient: process.env.FEE_RECIPIENT ?? (await ensureFeaturedFee(rpcUrl)).address };
  })();
  const built = dev ? Promise.resolve() : buildClientIfNeeded();
  // Each is awaited below; until then a failure waits there rather than ending the process unexplained.
  for (const work of [chainReady, built]) work.catch(() => {});
  // The database opens before the app's modules load, so PGlite compiles its WebAssembly while they do.
  const [{ loadConfig }, { openMigratedDatabase }] = await Promise.all([
    import("../src/server/env.ts"),
    import("../src/server/db/open.ts"),
  ]);
  const database = openDatabaseEarly(() => openMigratedDatabase(loadConfig({ ...process.env, DATA_DIR: dataDir })));
  const { closeOnSignals, startServer } = await import("../src/server/main.ts");
  const giveUp = async (error: unknown) => {
    await (await database)?.close();
    throw error;
  };
  const { rpcUrl, feeRecipient } = await chainReady.catch(giveUp);
  await built.catch(giveUp);

  // In dev the pages come from Vite's port: links in mail and wallet sign-in messages must name that origin.
  const vitePort = process.env.VITE_PORT ?? "5173";
  const publicUrl = process.env.PUBLIC_URL ?? (dev ? `http://localhost:${vitePort}` : undefined);
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    RPC_URL: rpcUrl,
    FEE_RECIPIENT: feeRecipient,
    PUBLIC_URL: publicUrl,
  });
  const { app, url } = await startServer(config, { database: await database });
  const vite = dev ? startVite(url) : undefined;

  printBanner([
    ["App", dev ? `http://localhost:${vitePort} (Vite; API on ${url})` : url],
    ["API docs", `${url}/api/docs`],
    ["Chain RPC", `${rpcUrl} (chain id ${config.chain.id}${chain && !chain.owned ? ", already running" : ""})`],
    ["Fee contract", config.feeRecipient],
    ...(config.chain.id === 31337
      ? ([
          ["Dev account", `${DEV_ACCOUNT.address} (10000 ETH on the local chain)`],
          ["Private key", `${DEV_ACCOUNT.privateKey} (import into MetaMask; test key, never use it elsewhere)`],
        ] as [string, string][])
      : []),
    ["Data", `${dataDir} (uploads, outbox/*.eml, logs)`],
  ]);

  closeOnSignals(async () => {
    vite?.kill("SIGTERM");
    await app.close();
    await chain?.stop();
  });
} catch (error) {
  await chain?.stop();
  (await import("../src/server/main.ts")).reportStartupError(error);
}
