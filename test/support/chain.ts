import fs from "node:fs";
import path from "node:path";
import hre from "hardhat";
import {
  type Abi,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  http,
  type PrivateKeyAccount,
} from "viem";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { FEATURED_FEE_WEI } from "#shared/constants.ts";
import { HARDHAT_MNEMONIC } from "../../scripts/lib/dev-account.ts";

const ARTIFACT = path.resolve(import.meta.dirname, "../../dist/artifacts/contracts/FeaturedFee.sol/FeaturedFee.json");

/** Hardhat's funded development accounts, by index: test keys only. */
export const devAccount = (index: number): PrivateKeyAccount => {
  const hd = mnemonicToAccount(HARDHAT_MNEMONIC, { addressIndex: index });
  return privateKeyToAccount(`0x${Buffer.from(hd.getHdKey().privateKey as Uint8Array).toString("hex")}`);
};

export const localChain = (rpcUrl: string) =>
  defineChain({
    id: 31337,
    name: "Hardhat",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });

/** An in-process Hardhat chain behind a JSON-RPC server on a random local port. */
export async function startTestChain() {
  const server = await hre.network.createServer("default", "127.0.0.1", 0);
  const { address, port } = await server.listen();
  const rpcUrl = `http://${address}:${port}`;
  const chain = localChain(rpcUrl);
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl) });
  const wallet = (account: PrivateKeyAccount) => createWalletClient({ account, chain, transport: http(rpcUrl) });
  const rpc = (method: string, params: unknown[] = []) =>
    publicClient.request({ method: method as never, params: params as never });
  return { rpcUrl, publicClient, wallet, rpc, close: () => server.close() };
}
export type TestChain = Awaited<ReturnType<typeof startTestChain>>;

/** Deploys FeaturedFee from account #0 with the real fee; builds the contract first if needed. */
export async function deployFeaturedFee(chain: TestChain) {
  if (!fs.existsSync(ARTIFACT)) await hre.tasks.getTask("build").run({ quiet: true, noTests: true });
  const { abi, bytecode } = JSON.parse(fs.readFileSync(ARTIFACT, "utf8")) as { abi: Abi; bytecode: Hex };
  const hash = await chain.wallet(devAccount(0)).deployContract({ abi, bytecode, args: [FEATURED_FEE_WEI] });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error("FeaturedFee was not deployed");
  return getAddress(receipt.contractAddress);
}
