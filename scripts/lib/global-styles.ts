import { ChakraProvider, type ChakraProviderProps, type SystemContext } from "@chakra-ui/react";
import { createElement } from "react";
import { renderToString } from "react-dom/server";

/** The id of the `<style>` element in index.html that holds the global styles. */
export const GLOBAL_STYLES_ID = "global-styles";

/**
 * Chakra UI's global styles for `system` (the cascade layers' order, the reset, the base styles and every token as a
 * CSS variable, for both colour modes) as the very CSS its provider would insert through Emotion. They are the same
 * on every page, so the build writes them into index.html once (vite.config.ts) and the app renders with `appSystem`
 * (src/client/app/theme.ts): a page the server rendered carries them in its head instead of 48 kB of Emotion styles
 * that the browser moved, hashed and serialised again at start. Build-time code: the browser never loads it.
 */
export function globalStylesOf(system: SystemContext): string {
  const html = renderToString(createElement(ChakraProvider, { value: system } as ChakraProviderProps, null));
  const rules = [...html.matchAll(/<style data-emotion="css-global [^"]*"[^>]*>([^<]*)<\/style>/g)].map(
    (match) => match[1],
  );
  if (rules.length === 0) throw new Error("Chakra UI's provider rendered no global styles: has it changed?");
  return rules.join("");
}
