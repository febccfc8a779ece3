import { useAtom } from "jotai";
import { atomWithStorage } from "jotai/utils";
import { useEffect, useSyncExternalStore } from "react";
import { COLOR_MODE_STORAGE_KEY } from "#shared/constants.ts";
import { useHydrated } from "./use-hydrated.tsx";

export type ColorMode = "light" | "dark";

/** The reader's own choice; null follows the system. */
const colorModeAtom = atomWithStorage<ColorMode | null>(COLOR_MODE_STORAGE_KEY, null, undefined, { getOnInit: true });

const systemQuery = () => window.matchMedia?.("(prefers-color-scheme: dark)");
const subscribe = (onChange: () => void) => {
  const query = systemQuery();
  query?.addEventListener("change", onChange);
  return () => query?.removeEventListener("change", onChange);
};
const systemMode = (): ColorMode => (systemQuery()?.matches ? "dark" : "light");

/** Chakra's dark tokens apply under a `dark` class on <html>; this keeps that class in step with the choice. */
export function useColorMode() {
  const [choice, setChoice] = useAtom(colorModeAtom);
  // The system's mode counts only once hydrated (below), so the browser may read it while hydrating too: a server
  // snapshot that differs from it would force a synchronous render of the whole app right after hydration.
  const system = useSyncExternalStore(
    subscribe,
    systemMode,
    typeof window === "undefined" ? () => "light" : systemMode,
  );
  // A stored choice is the browser's alone: server-rendered HTML is light until it hydrates. Until then <html> is
  // left as main.tsx set it before the first paint (from the same choice and system), and a press (one replayed as
  // the app starts, say) toggles what the reader sees, not that light placeholder: following the placeholder, a
  // reader in dark mode would see a flash of light and their first press store dark again.
  const hydrated = useHydrated();
  const chosen = choice ?? system;
  const mode = hydrated ? chosen : "light";
  useEffect(() => {
    if (!hydrated) return;
    const root = document.documentElement;
    root.classList.toggle("dark", mode === "dark");
    root.classList.toggle("light", mode === "light");
    root.style.colorScheme = mode;
  }, [hydrated, mode]);
  return { mode, toggle: () => setChoice(chosen === "dark" ? "light" : "dark") };
}
