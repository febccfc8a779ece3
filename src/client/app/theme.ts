import type { SystemContext } from "@chakra-ui/react";
import { madeSystem } from "./system-steps.ts";

/**
 * The app's Chakra UI system, built from Chakra's base and the app's theme (`theme-config.ts`): in a browser main.tsx
 * has made it already, a step a task (`system-steps.ts`).
 */
export const system = madeSystem();

/**
 * The system the app renders with: the one above without the global styles (the reset, the base styles, every token
 * as a CSS variable) that Chakra UI's provider would otherwise insert through Emotion at run time. They are the same
 * on every page, so the build writes them into index.html once (scripts/lib/global-styles.ts, vite.config.ts), the
 * cascade layers' order first; `disableLayers` only keeps the provider from declaring that order a second time.
 */
export const appSystem: SystemContext = Object.defineProperties({} as SystemContext, {
  // Copied as they are: the build makes `_global` a getter (scripts/lib/chakra-ui-patches.ts), which spreading
  // would call.
  ...Object.getOwnPropertyDescriptors(system),
  _global: { value: [] },
  _config: { value: { ...system._config, disableLayers: true } },
});
