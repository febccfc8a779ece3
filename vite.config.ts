import path from "node:path";
import react from "@vitejs/plugin-react";
import type { HtmlTagDescriptor, Plugin } from "vite";
import { defineConfig } from "vitest/config";
import { chakraSystemInSteps, lazyChakraGlobalStyles, pureChakraTheme } from "./scripts/lib/chakra-ui-patches.ts";
import { pureReactRouterComponents } from "./scripts/lib/react-router-patches.ts";

const ROOT = import.meta.dirname;
// In `npm run dev` the API runs beside Vite; scripts/start.ts passes its URL.
const apiTarget = process.env.PENCHAIN_API_URL ?? "http://localhost:3000";

/**
 * Writes Chakra UI's global styles into index.html as one stylesheet (scripts/lib/global-styles.ts), so neither
 * the server renderer nor the browser makes them per page.
 */
export function globalStyles(): Plugin {
  // Made once: `npm run dev` transforms index.html at every page load.
  let styles: Promise<HtmlTagDescriptor> | undefined;
  const make = async (): Promise<HtmlTagDescriptor> => {
    const { system } = await import("./src/client/app/theme.ts");
    const { GLOBAL_STYLES_ID, globalStylesOf } = await import("./scripts/lib/global-styles.ts");
    return { tag: "style", attrs: { id: GLOBAL_STYLES_ID }, children: globalStylesOf(system), injectTo: "head" };
  };
  return {
    name: "penchain:global-styles",
    async transformIndexHtml() {
      styles ??= make();
      return [await styles];
    },
  };
}

// `vite build` builds the browser client into dist/client; `vite build --ssr entry-server.tsx` the server renderer of
// reader pages into dist/server, which the server loads at run time.
export default defineConfig(({ isSsrBuild }) => ({
  root: path.join(ROOT, "src/client"),
  // Vite's and Vitest's caches stay out of the sources: a test run writing into src/client made the next `npm start`
  // rebuild the client.
  cacheDir: path.join(ROOT, "node_modules/.vite"),
  plugins: [
    react(),
    globalStyles(),
    lazyChakraGlobalStyles(),
    chakraSystemInSteps(),
    pureChakraTheme(),
    pureReactRouterComponents(),
  ],
  // React Router publishes its production build beside the development one but names only the latter in its
  // exports, so bundlers take the build with development warnings on.
  resolve: {
    alias: [
      { find: /^react-router$/, replacement: path.join(ROOT, "node_modules/react-router/dist/production/index.mjs") },
      {
        find: /^react-router\/dom$/,
        replacement: path.join(ROOT, "node_modules/react-router/dist/production/dom-export.mjs"),
      },
    ],
  },
  // The server renderer is one file with everything it uses (React, React Router, Chakra UI and the rest): loading
  // their hundreds of modules one by one cost the server about 100 MB of memory. React comes in it as its production
  // build whatever NODE_ENV the server runs with: its development build rendered pages several times slower.
  // The wallet's libraries stay outside: only the lazily loaded wallet code names them, which never runs on the server.
  // (Only for that build: the tests' own server-side modules load as Node loads them.)
  ...(isSsrBuild
    ? {
        ssr: { noExternal: true, external: ["wagmi", "viem", "@rainbow-me/rainbowkit"] },
        define: { "process.env.NODE_ENV": JSON.stringify("production") },
      }
    : {}),
  build: {
    outDir: path.join(ROOT, isSsrBuild ? "dist/server" : "dist/client"),
    emptyOutDir: true,
    sourcemap: true,
    // The lazily loaded wallet chunk is about 600 kB before compression; it loads on demand, so the default 500 kB
    // warning only adds noise.
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      // A feature's public.ts(x) only exports: imported for what it re-exports, it is not a file of its own to fetch.
      treeshake: {
        moduleSideEffects: [
          { test: /src[\\/]client[\\/]features[\\/][^\\/]+[\\/]public\.tsx?$/, sideEffects: false },
          // Emotion imports hoist-non-react-statics bare, for its `withTheme` alone, which nothing here uses.
          {
            test: /node_modules[\\/](hoist-non-react-statics|react-is|@emotion[\\/]react[\\/]_isolated-hnrs)[\\/]/,
            sideEffects: false,
          },
        ],
      },
      // The libraries every screen runs on, in a few chunks rather than dozens of small ones: a phone on a slow
      // network pays a round trip for each file it fetches. React, Chakra UI's styling (all the theme needs) and the
      // form libraries (zod, which main.tsx configures before any schema is made) are apart from the rest, so main.tsx
      // can run each in a task of its own. Each screen's own code and what only it uses (the editor, the wallet,
      // dialogs) stay in chunks of their own.
      output: isSsrBuild
        ? {}
        : {
            // A group of parts is named after every screen that uses it; the file only needs the first word.
            chunkFileNames: (chunk) =>
              chunk.name.startsWith("parts~") ? "assets/parts-[hash].js" : "assets/[name]-[hash].js",
            codeSplitting: {
              groups: [
                {
                  name: "react",
                  test: /node_modules[\\/](react|react-dom|scheduler|react-is|@emotion|stylis|hoist-non-react-statics)[\\/]/,
                  priority: 3,
                },
                // With the module that configures zod and the one the API's schemas import it through.
                {
                  name: "forms",
                  test: /node_modules[\\/](zod|react-hook-form|@hookform)[\\/]|src[\\/](shared[\\/]zod|client[\\/]lib[\\/]zod-config)\.ts$/,
                  priority: 2,
                },
                {
                  name: "libs",
                  test: /node_modules[\\/](react-router|react-router-dom|@tanstack|jotai|cookie|set-cookie-parser|timeago\.js)[\\/]|src[\\/]client[\\/]components[\\/]router-link\.tsx$/,
                  priority: 2,
                },
                // Chakra UI's styling system and theme, with the app's theme config that only picks from them and the
                // module that makes the system from them in steps (each a task of its own, called by main.tsx); its
                // components go with the screens, and so do the recipes the theme config does not take (added by the
                // screens that render them: lib/use-recipes.ts).
                {
                  name: "ui",
                  test: /node_modules[\\/](@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/](?!components[\\/]|theme[\\/]recipes[\\/](data-list|dialog|menu|stat|table|tabs)\.js)|@pandacss[\\/]|@zag-js[\\/]anatomy[\\/]|(@zag-js|@ark-ui)[\\/].*\.anatomy\.m?js$)|src[\\/]client[\\/](app[\\/](theme-config|system-steps)|lib[\\/]use-recipes)\.ts$/,
                  priority: 1,
                  includeDependenciesRecursively: false,
                },
                // Chakra UI's components and the Ark UI and Zag parts under them, grouped by the screens that use
                // them (so a screen still fetches only what it renders) with groups under 40 kB merged into their
                // nearest neighbour: left to itself the build made a file of each, and a writer's first screen
                // fetched twenty of under 1 kB. Each file costs ~420 bytes of headers; of the thresholds tried, 40 kB
                // gave Create Blog and a post the fewest bytes (8 and 20 kB more files, 55 kB a shared 25 KiB more).
                // Tabs, tables and stats (the profile's, the payments', the stats' and the log's screens) apart: merged
                // by size with the rest, they rode with Create Blog, which has none.
                {
                  name: "views",
                  test: /node_modules[\\/](@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/](components|theme[\\/]recipes)[\\/](tabs|table|stat)|@ark-ui[\\/]react[\\/]dist[\\/]components[\\/]tabs|@zag-js[\\/]tabs)\b/,
                  priority: 1,
                  includeDependenciesRecursively: false,
                },
                // The bar's menus (positioning, typeahead) and the dialogs (focus trap, dismissal, scroll lock) open
                // at a press: apart, so merging by size never puts them with the parts a screen renders at start.
                {
                  name: "menus",
                  test: /node_modules[\\/](@zag-js[\\/](menu|popper|rect-utils)|@floating-ui|@ark-ui[\\/]react[\\/]dist[\\/]components[\\/]menu|@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/](components|theme[\\/]recipes)[\\/]menu)\b/,
                  priority: 1,
                  includeDependenciesRecursively: false,
                },
                {
                  name: "overlays",
                  test: /node_modules[\\/](@zag-js[\\/](dialog|focus-trap|dismissable|interact-outside|aria-hidden|remove-scroll)|@ark-ui[\\/]react[\\/]dist[\\/]components[\\/]dialog|@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/](components|theme[\\/]recipes)[\\/]dialog)\b/,
                  priority: 1,
                  includeDependenciesRecursively: false,
                },
                {
                  name: "parts",
                  test: /node_modules[\\/](@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/]components[\\/]|@ark-ui[\\/]|@zag-js[\\/])/,
                  entriesAware: true,
                  entriesAwareMergeThreshold: 40_000,
                },
                // The API's schemas every screen parses answers with, in one file rather than six small ones. Only
                // these modules (not constants.ts under them, which the reader pages' entry imports), and none of them
                // imported dynamically: the build would then add a shared runtime file that reader pages fetch too.
                {
                  name: "schemas",
                  test: /src[\\/]shared[\\/]schemas[\\/](users|posts|comments|siwe|tips|upload|system|session|provenance)\.ts$|src[\\/]shared[\\/]handles\.ts$/,
                  includeDependenciesRecursively: false,
                },
                // What every screen of the app runs on: its client library and shared components, without what they
                // import (not src/shared, whose constants the tiny entry of the reader pages imports, nor the image
                // picker's, the post body's sanitiser's and the menus' libraries, which come with what needs them).
                // Not the components with large libraries of their own (the image picker, the post body's sanitiser,
                // the bar's menus), which come with the screens or the presses that need them (lib/zod-config.ts goes
                // with zod, above). With it, the few small modules most screens share (the error and page shapes of
                // every answer, the pages' titles and the text helpers under them, the wallet's unused-payment note): a file
                // each cost its headers and a round trip. Not the ask to sign a revision, whose lazy islands would
                // take the build's runtime out of the reader pages' entry into a file they fetch too.
                {
                  name: "shell",
                  test: /src[\\/]client[\\/](lib|components)[\\/](?!form[\\/]image-drop|rich-text|layout[\\/]nav-menu-list|router-link|use-recipes)|src[\\/]client[\\/](app[\\/]page-heads|features[\\/]wallet[\\/]unused-payment)\.ts$|src[\\/]shared[\\/](text|schemas[\\/](error|pagination))\.ts$/,
                  includeDependenciesRecursively: false,
                },
              ],
            },
          },
      onLog(level, log, handler) {
        // ox (under viem) names a Node module in code paths browsers never take.
        if (log.message.includes("node:worker_threads") && log.message.includes("/ox/")) return;
        handler(level, log);
      },
    },
  },
  server: {
    host: "127.0.0.1",
    proxy: { "/api": apiTarget, "/uploads": apiTarget },
  },
  test: {
    projects: [
      {
        test: {
          name: "unit",
          root: ROOT,
          include: ["test/unit/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        test: {
          name: "integration",
          root: ROOT,
          include: ["test/integration/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "client",
          root: ROOT,
          include: ["test/client/**/*.test.tsx"],
          environment: "jsdom",
          setupFiles: ["test/client/setup.ts"],
          // The whole app in jsdom, typed into key by key: several seconds a test on two shared cores.
          testTimeout: 15_000,
        },
      },
    ],
  },
}));
