import { Button, Stack, Text } from "@chakra-ui/react";
import { createAuthenticationAdapter, useConnectModal } from "@rainbow-me/rainbowkit";
import { useEffect, useMemo, useRef, useState } from "react";
import { createSiweMessage } from "viem/siwe";
import type { PublicConfig } from "#shared/schemas/system.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { usePublicConfig } from "../../../lib/config.ts";
import { useSetSession } from "../../../lib/session.ts";
import { getSiweNonce } from "../api/sign-wallet-proof.ts";
import { walletLogin } from "../api/wallet-login.ts";
import { parseWalletError } from "../parse-wallet-error.ts";
import { WalletProviders } from "./wallet-providers.tsx";

/**
 * Login's "Sign in with wallet": RainbowKit connects and asks for a Sign-In with Ethereum signature; the server
 * answers with the same session as a password login, for the account whose verified wallet signed.
 */
export default function WalletLogin() {
  const site = usePublicConfig().data;
  const setSession = useSetSession();
  const [error, setError] = useState<string | null>(null);
  const adapter = useMemo(
    () =>
      createAuthenticationAdapter({
        getNonce: getSiweNonce,
        // RainbowKit asks only once a wallet connected, which WalletProviders allows only with the settings loaded.
        createMessage: ({ nonce, address }) => {
          if (!site) throw new Error("The site's chain settings are not loaded yet.");
          return createSiweMessage({
            domain: window.location.host,
            uri: window.location.origin,
            address,
            chainId: site.chainId,
            nonce,
            statement: "Sign in to Penchain with this wallet.",
            version: "1",
            issuedAt: new Date(),
          });
        },
        verify: async ({ message, signature }) => {
          setError(null);
          try {
            setSession(await walletLogin({ message, signature }));
            return true;
          } catch (caught) {
            setError(parseWalletError(caught, { chainName: site?.chainName }));
            return false;
          }
        },
        signOut: async () => {},
      }),
    [site, setSession],
  );
  return (
    <WalletProviders authentication={{ adapter, status: "unauthenticated" }}>
      <WalletLoginButton site={site} error={error} />
    </WalletProviders>
  );
}

function WalletLoginButton({ site, error }: { site: PublicConfig | undefined; error: string | null }) {
  // Connects when no wallet is connected, and asks the connected wallet to sign in otherwise.
  const { openConnectModal } = useConnectModal();
  const asked = useRef(false);
  // The click that loaded this island asked to sign in: open RainbowKit as soon as it can. RainbowKit closes its
  // modals when it mounts unauthenticated, after this child's effect, so the opening waits for the next task.
  useEffect(() => {
    if (asked.current || !openConnectModal) return;
    asked.current = true;
    setTimeout(openConnectModal, 0);
  }, [openConnectModal]);
  return (
    <Stack gap="2">
      <Button type="button" variant="outline" disabled={!openConnectModal} onClick={openConnectModal}>
        Sign in with wallet
      </Button>
      <ErrorLines error={error} />
      {site && (
        <Text fontSize="sm" color="fg.muted">
          For accounts with a verified wallet, on {site.chainName}.
        </Text>
      )}
    </Stack>
  );
}
