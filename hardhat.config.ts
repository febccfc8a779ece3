import path from "node:path";
import hardhatToolboxViem from "@nomicfoundation/hardhat-toolbox-viem";
import { defineConfig } from "hardhat/config";

// Hardhat downloads solc unless each profile names a compiler; the npm `solc` package ships it as wasm, so builds
// work offline. Ignition uses the production profile, so it needs the path too.
const SOLCJS = path.resolve(import.meta.dirname, "node_modules/solc/soljson.js");

export default defineConfig({
  plugins: [hardhatToolboxViem],
  solidity: {
    profiles: {
      default: { version: "0.8.28", path: SOLCJS },
      production: {
        version: "0.8.28",
        path: SOLCJS,
        settings: { optimizer: { enabled: true, runs: 200 } },
      },
    },
  },
  paths: {
    tests: { nodejs: "test/contracts", solidity: "test/contracts" },
    cache: "node_modules/.cache/hardhat",
    artifacts: "dist/artifacts",
  },
  networks: {
    localhost: { type: "http", url: process.env.RPC_URL ?? "http://127.0.0.1:8545" },
  },
});
