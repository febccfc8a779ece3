import path from "node:path";
import react from "@vitejs/plugin-react";
import type { HtmlTagDescriptor, Plugin } from "vite";
import { defineConfig } from "vitest/config";

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

/** Text replaced in a library's file, each once; the build fails if the file no longer reads as expected. */
function replaceOnce(code: string, id: string, plugin: string, changes: [from: string, to: string][]) {
  const unexpected = changes.filter(([from]) => code.split(from).length !== 2).map(([from]) => from.trim());
  if (unexpected.length > 0) throw new Error(`${id} no longer reads as ${plugin} expects (${unexpected.join("; ")})`);
  return changes.reduce((changed, [from, to]) => changed.replace(from, to), code);
}

/**
 * Chakra UI's `createSystem` makes the global styles as it makes the system, a third of its work, which the browser
 * did on a phone's main thread at every start for styles it no longer inserts (see `globalStyles` above). This makes
 * them when they are first asked for. The build fails if Chakra UI's code no longer reads as expected.
 */
export function lazyChakraGlobalStyles(): Plugin {
  return {
    name: "penchain:lazy-chakra-global-styles",
    transform(code, id) {
      if (!/@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/]styled-system[\\/]system\.js$/.test(id)) return null;
      // Line for line, so the library's source map still holds (`map: null` keeps it).
      const changed = replaceOnce(code, id, "lazyChakraGlobalStyles", [
        ["const _global = [getPreflightCss(), getGlobalCss(), getTokenCss()];", "let _global;"],
        [
          "\n    _global,\n",
          "\n    get _global() { return _global ??= [getPreflightCss(), getGlobalCss(), getTokenCss()]; },\n",
        ],
      ]);
      return { code: changed, map: null };
    },
  };
}

/**
 * Chakra UI's `createSystem` is the largest single piece of a signed-in page's start-up work, longer in one piece
 * than a phone may hold its main thread. This gives it a second form, `createSystem.inSteps`: a generator that pauses
 * after merging the configs, between the phases of building the token dictionary and after making the style utility,
 * so src/client/app/system-steps.ts can let the browser paint and take input between the steps. `createSystem` and
 * `createTokenDictionary` themselves run the same steps at once. Line for line, like the change above (only lines
 * added at the ends of the files).
 */
export function chakraSystemInSteps(): Plugin {
  const runAll = (name: string, steps: string) =>
    `function ${name}(...args) { const steps = ${steps}(...args); for (;;) { const step = steps.next(); if (step.done) return step.value; } }\n`;
  const folder = /@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/]styled-system[\\/]/;
  return {
    name: "penchain:chakra-system-in-steps",
    transform(code, id) {
      if (!folder.test(id)) return null;
      const file = id.split(/[\\/]/).pop();
      if (file === "system.js") {
        const changed = replaceOnce(code, id, "chakraSystemInSteps", [
          ["import { createTokenDictionary } from", "import { createTokenDictionaryInSteps } from"],
          ["function createSystem(...configs) {", "function* createSystemInSteps(...configs) {"],
          ["  const config = mergeConfigs(...configs);\n", "  const config = mergeConfigs(...configs); yield;\n"],
          ["  const tokens = createTokenDictionary({", "  const tokens = yield* createTokenDictionaryInSteps({"],
          ["  const breakpoints = createBreakpoints(", "  yield; const breakpoints = createBreakpoints("],
          ["  function assignComposition() {", "  yield; function assignComposition() {"],
          [
            "export { createSystem, isValidSystem };",
            `${runAll("createSystem", "createSystemInSteps")}createSystem.inSteps = createSystemInSteps;\nexport { createSystem, isValidSystem };`,
          ],
        ]);
        return { code: changed, map: null };
      }
      if (file === "token-dictionary.js") {
        const changed = replaceOnce(code, id, "chakraSystemInSteps", [
          ["function createTokenDictionary(options) {", "function* createTokenDictionaryInSteps(options) {"],
          ["  function build() {", "  function* build() {"],
          ['    applyTransforms("pre");\n', '    applyTransforms("pre"); yield;\n'],
          ["    expandTokenReferences$1();\n", "    expandTokenReferences$1(); yield;\n"],
          ['    applyTransforms("post");\n', '    applyTransforms("post"); yield;\n'],
          ["  build();\n  return dictionary;", "  yield; yield* build();\n  return dictionary;"],
          [
            "export { createTokenDictionary, tokenCategories };",
            `${runAll("createTokenDictionary", "createTokenDictionaryInSteps")}export { createTokenDictionary, createTokenDictionaryInSteps, tokenCategories };`,
          ],
        ]);
        return { code: changed, map: null };
      }
      return null;
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
  plugins: [react(), globalStyles(), lazyChakraGlobalStyles(), chakraSystemInSteps()],
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
        moduleSideEffects: [{ test: /src[\\/]client[\\/]features[\\/][^\\/]+[\\/]public\.tsx?$/, sideEffects: false }],
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
                  test: /node_modules[\\/](react-router|react-router-dom|@tanstack|jotai|cookie|set-cookie-parser|timeago\.js)[\\/]/,
                  priority: 2,
                },
                // Chakra UI's styling system and theme, with the app's theme config that only picks from them and the
                // module that makes the system from them in steps (each a task of its own, called by main.tsx); its
                // components go with the screens.
                {
                  name: "ui",
                  test: /node_modules[\\/](@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/](?!components[\\/])|@pandacss[\\/])|src[\\/]client[\\/]app[\\/](theme-config|system-steps)\.ts$/,
                  priority: 1,
                },
                // Chakra UI's components and the Ark UI and Zag parts under them, grouped by the screens that use
                // them (so a screen still fetches only what it renders) with groups under 40 kB merged into their
                // nearest neighbour: left to itself the build made a file of each, and a writer's first screen
                // fetched twenty of under 1 kB. Each file costs ~420 bytes of headers; of the thresholds tried, 40 kB
                // gave Create Blog and a post the fewest bytes (8 and 20 kB more files, 55 kB a shared 25 KiB more).
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
                  test: /src[\\/]shared[\\/]schemas[\\/](users|posts|comments|siwe|tips|upload|system|session)\.ts$|src[\\/]shared[\\/]handles\.ts$/,
                  includeDependenciesRecursively: false,
                },
                // What every screen of the app runs on: its client library and shared components, without what they
                // import (not src/shared, whose constants the tiny entry of the reader pages imports, nor the image
                // picker's, the post body's sanitiser's and the menus' libraries, which come with what needs them).
                // Not the components with large libraries of their own (the image picker, the post body's sanitiser,
                // the bar's menus), which come with the screens or the presses that need them (lib/zod-config.ts goes
                // with zod, above). With it, the few small modules most screens share (the error and page shapes of
                // every answer, the pages' titles and the text helpers under them, the wallet's unused-payment note):
                // a file each cost its headers and a round trip.
                {
                  name: "shell",
                  test: /src[\\/]client[\\/](lib|components)[\\/](?!form[\\/]image-drop|rich-text|layout[\\/]nav-menu-list)|src[\\/]client[\\/](app[\\/]page-heads|features[\\/]wallet[\\/]unused-payment)\.ts$|src[\\/]shared[\\/](text|schemas[\\/](error|pagination))\.ts$/,
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
