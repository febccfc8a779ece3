import { connectorsForWallets } from "@rainbow-me/rainbowkit";
import { injectedWallet } from "@rainbow-me/rainbowkit/wallets";
import { type Chain, defineChain } from "viem";
import { type Config, createConfig, http } from "wagmi";
import type { PublicConfig } from "#shared/schemas/system.ts";

/** The one chain the server accepts payments on, as the server describes it: the only chain wallets are offered. */
export function chainFrom(config: PublicConfig): Chain {
  return defineChain({
    id: config.chainId,
    name: config.chainName,
    nativeCurrency: config.nativeCurrency,
    rpcUrls: { default: { http: [config.rpcUrl] } },
    blockExplorers: config.explorerUrl ? { default: { name: "Explorer", url: config.explorerUrl } } : undefined,
  });
}

let cached: { key: string; config: Config } | undefined;

/**
 * One wagmi config per page load, shared by every wallet island, so a wallet connected on one screen stays
 * connected on the next. Browser wallets announced through EIP-6963 (MetaMask, Rabby, …) appear under
 * "Installed"; the injected entry covers wallets that only set window.ethereum.
 */
export function walletConfigFor(config: PublicConfig): Config {
  const key = `${config.chainId}:${config.rpcUrl}`;
  if (cached?.key !== key) {
    const chain = chainFrom(config);
    cached = {
      key,
      config: createConfig({
        chains: [chain],
        transports: { [chain.id]: http(config.rpcUrl) },
        connectors: connectorsForWallets([{ groupName: "Browser", wallets: [injectedWallet] }], {
          appName: document.title || "Penchain",
          // Only WalletConnect-based wallets use it, and none is listed.
          projectId: "penchain-no-walletconnect",
        }),
      }),
    };
  }
  return cached.config;
}
