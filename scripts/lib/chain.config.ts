import { defineConfig } from "hardhat/config";

// The local chain `npm start` runs (`hardhat node`): Hardhat's default network (chain 31337, the test mnemonic's
// accounts), without the plugins hardhat.config.ts loads for building and testing the contract, which would double
// the node's start-up.
export default defineConfig({});
