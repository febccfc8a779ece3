import { useEffect, useRef } from "react";
import { isAddressEqual } from "viem";
import { useAccount } from "wagmi";
import { useSession } from "../../../lib/session.ts";
import { useLogout } from "../../../lib/use-logout.ts";
import { WalletProviders } from "./wallet-providers.tsx";

/**
 * Mounted while a session started by signing with a wallet lasts: switching to another account or disconnecting
 * in the wallet ends it, as logging out does; so does a wallet that no longer grants the site its account when a
 * page loads.
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
  // Whether a connection was there or being restored: a plain "disconnected" before that is only the start.
  const wasConnected = useRef(false);

  useEffect(() => {
    if (status !== "disconnected") wasConnected.current = true;
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
