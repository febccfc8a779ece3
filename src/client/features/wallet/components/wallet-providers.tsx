import "@rainbow-me/rainbowkit/styles.css";
import { Spinner } from "@chakra-ui/react";
import {
  type AuthenticationConfig,
  darkTheme,
  lightTheme,
  RainbowKitAuthenticationProvider,
  RainbowKitProvider,
} from "@rainbow-me/rainbowkit";
import { type ComponentType, type ReactNode, useEffect } from "react";
import { type Config, WagmiContext } from "wagmi";
import { reconnect } from "wagmi/actions";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { useColorMode } from "../../../lib/color-mode.ts";
import { usePublicConfig } from "../../../lib/config.ts";
import { walletConfigFor } from "../wallet-config.ts";

const look = { accentColor: "#0d9488", borderRadius: "medium", fontStack: "system" } as const;
let restored = false;
/**
 * Once per page load, restore a connection the wallet still grants; later islands share the result. (wagmi's
 * WagmiProvider would do this on every render of an island, dropping the connection whenever a form re-renders.)
 */
function useRestoreConnection(config: Config | undefined) {
  useEffect(() => {
    if (config && !restored) {
      restored = true;
      void reconnect(config);
    }
  }, [config]);
}

/**
 * wagmi and RainbowKit around one wallet island. The app's React Query client (an ancestor) serves wagmi too.
 * Only lazily loaded screens render this, so readers never download wallet code.
 */
export function WalletProviders({
  children,
  authentication,
  quiet = false,
}: {
  children: ReactNode;
  /** Sign-In with Ethereum through RainbowKit's authentication flow (wallet login only). */
  authentication?: Pick<AuthenticationConfig<string>, "adapter" | "status">;
  /** No spinner while the chain settings load (for islands that show nothing themselves). */
  quiet?: boolean;
}) {
  const config = usePublicConfig();
  const { mode } = useColorMode();
  const wagmiConfig = config.data && walletConfigFor(config.data);
  useRestoreConnection(wagmiConfig);
  if (config.isPending) return quiet ? null : <Spinner size="sm" aria-label="Loading wallet" />;
  if (!config.data || !wagmiConfig) return quiet ? null : <ErrorLines error={config.error} />;
  const kit = (
    <RainbowKitProvider
      theme={mode === "dark" ? darkTheme(look) : lightTheme(look)}
      initialChain={config.data.chainId}
      modalSize="compact"
    >
      {children}
    </RainbowKitProvider>
  );
  return (
    <WagmiContext.Provider value={wagmiConfig}>
      {authentication ? (
        <RainbowKitAuthenticationProvider adapter={authentication.adapter} status={authentication.status}>
          {kit}
        </RainbowKitAuthenticationProvider>
      ) : (
        kit
      )}
    </WagmiContext.Provider>
  );
}

/** An island's default export: `Panel` inside the wallet providers. */
export function walletIsland<Props extends object>(Panel: ComponentType<Props>) {
  return function WalletIsland(props: Props) {
    return (
      <WalletProviders>
        <Panel {...props} />
      </WalletProviders>
    );
  };
}
