import { useConnectModal } from "@rainbow-me/rainbowkit";
import { useEffect, useRef, useState } from "react";
import { useAccount } from "wagmi";

/**
 * `run(action)`: the action at once when a wallet is connected; otherwise RainbowKit's connect modal first, and the
 * action as soon as the wallet connects. Closing the modal without connecting drops it. Actions read the wallet
 * through wagmi's actions, never through values captured at the click.
 */
export function useConnectThen(options: { startWith?: () => void } = {}) {
  const { status } = useAccount();
  const { openConnectModal, connectModalOpen } = useConnectModal();
  const [waiting, setWaiting] = useState<(() => void) | null>(null);
  const modalSeen = useRef(false);
  const started = useRef(false);
  const ready = status === "connected" || Boolean(openConnectModal);

  useEffect(() => {
    if (!waiting) return;
    if (status === "connected") {
      setWaiting(null);
      waiting();
    } else if (connectModalOpen) modalSeen.current = true;
    else if (modalSeen.current && status === "disconnected") {
      modalSeen.current = false;
      setWaiting(null);
    }
  }, [waiting, status, connectModalOpen]);

  const run = (action: () => void) => {
    if (status === "connected") return action();
    modalSeen.current = false;
    setWaiting(() => action);
    openConnectModal?.();
  };

  // Islands load on a click: `startWith` carries that click out once connecting can start.
  useEffect(() => {
    if (options.startWith && ready && !started.current) {
      started.current = true;
      run(options.startWith);
    }
  });

  /** `ready`: whether connecting can start now (false while a lost connection is being restored). */
  return { ready, run };
}
