import { useEffect, useRef } from "react";
import { isAddressEqual } from "viem";
import { useAccount } from "wagmi";
import { useSession } from "../../auth/session.ts";
import { useLogout } from "../../auth/use-logout.ts";
import { WalletProviders } from "./wallet-providers.tsx";

/**
 * Mounted while a session started by signing with a wallet lasts: switching to another account or disconnecting
 * in the wallet ends it, as logging out does.
 */
export default function WalletSessionGuard() {
  return (
    <WalletProviders quiet>
      <Guard />
    </WalletProviders>
  );
}

function Guard() {
  const session = useSession();
  const logout = useLogout();
  const { address, status } = useAccount();
  const wasConnected = useRef(false);

  useEffect(() => {
    if (status === "connected" || status === "reconnecting") wasConnected.current = true;
    const signedWith = session?.walletAddress as `0x${string}` | null | undefined;
    const switched = status === "connected" && address && signedWith && !isAddressEqual(address, signedWith);
    const dropped = status === "disconnected" && wasConnected.current;
    if (switched || dropped) {
      wasConnected.current = false;
      logout();
    }
  }, [status, address, session, logout]);
  return null;
}
