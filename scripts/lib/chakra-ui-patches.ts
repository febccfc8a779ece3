import type { Plugin } from "vite";

/**
 * Chakra UI's build-time patches, for the version below: the Vite build rewrites a few lines of its styled-system so
 * the browser does less at start. Each change names the exact text it replaces, and the build fails when the library
 * no longer reads so; after an upgrade of @chakra-ui/react, check them against its code and update the version.
 */
export const CHAKRA_UI_VERSION = "3.37.0";

/** Text replaced in a library's file, each once; the build fails if the file no longer reads as expected. */
function replaceOnce(code: string, id: string, plugin: string, changes: [from: string, to: string][]) {
  const unexpected = changes.filter(([from]) => code.split(from).length !== 2).map(([from]) => from.trim());
  if (unexpected.length > 0) {
    throw new Error(
      `${id} no longer reads as ${plugin} expects (${unexpected.join("; ")}); written for @chakra-ui/react ${CHAKRA_UI_VERSION}`,
    );
  }
  return changes.reduce((changed, [from, to]) => changed.replace(from, to), code);
}

/**
 * Chakra UI's `createSystem` makes the global styles as it makes the system, a third of its work, which the browser
 * did on a phone's main thread at every start for styles it no longer inserts (see `globalStyles` in vite.config.ts).
 * This makes them when they are first asked for. The build fails if Chakra UI's code no longer reads as expected.
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

/**
 * Chakra UI's full default theme (`defaultThemeConfig`, every component's recipe) is made by a call at the top of its
 * theme module, which the app imports for the pieces it picks (app/theme-config.ts): a call the bundler must keep, and
 * with it the recipes of sixty components the app never renders. Marked pure, it goes unless something uses it.
 */
export function pureChakraTheme(): Plugin {
  return {
    name: "penchain:pure-chakra-theme",
    transform(code, id) {
      if (!/@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/]theme[\\/]index\.js$/.test(id)) return null;
      const changed = replaceOnce(code, id, "pureChakraTheme", [
        ["const defaultThemeConfig = defineConfig({", "const defaultThemeConfig = /* @__PURE__ */ defineConfig({"],
      ]);
      return { code: changed, map: null };
    },
  };
}
