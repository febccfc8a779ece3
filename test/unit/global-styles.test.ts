import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { ChakraProvider, type ChakraProviderProps } from "@chakra-ui/react";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CHAKRA_UI_VERSION, chakraSystemInSteps, lazyChakraGlobalStyles } from "../../scripts/lib/chakra-ui-patches.ts";
import { globalStylesOf } from "../../scripts/lib/global-styles.ts";
import { appSystem, system } from "../../src/client/app/theme.ts";
import { globalStyles } from "../../vite.config.ts";

const systemFile = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@chakra-ui/react/package.json")),
  "dist/esm/styled-system/system.js",
);
const dictionaryFile = path.join(path.dirname(systemFile), "token-dictionary.js");
const provided = (value: typeof system) =>
  renderToString(createElement(ChakraProvider, { value } as ChakraProviderProps, null));

describe("Chakra UI's global styles", () => {
  it("are written into index.html once, as the provider would insert them, and the app's provider inserts none", async () => {
    const styles = globalStylesOf(system);
    expect(styles.startsWith("@layer reset,base,tokens,recipes;")).toBe(true);
    expect(styles.length).toBeGreaterThan(20_000);
    expect(provided(system).replace(/<[^>]+>/g, "")).toBe(styles);
    expect(provided(appSystem)).not.toMatch(/<style[^>]*>[^<]/);
    const tags = await (globalStyles().transformIndexHtml as unknown as () => Promise<unknown>)();
    expect(tags).toEqual([expect.objectContaining({ attrs: { id: "global-styles" }, children: styles })]);
  });
});
const transform = (code: string, id = systemFile) =>
  (lazyChakraGlobalStyles().transform as (code: string, id: string) => { code: string } | null)(code, id)?.code ?? null;

describe("the build's change to Chakra UI's createSystem", () => {
  it("makes the global styles when first asked for, not when the system is made", async () => {
    const code = fs.readFileSync(systemFile, "utf8");
    const changed = transform(code) ?? "";
    expect(changed).not.toContain("const _global = [");
    expect(changed).toContain(
      "get _global() { return _global ??= [getPreflightCss(), getGlobalCss(), getTokenCss()]; }",
    );
    // Loaded as the build would load it, the system makes them on demand, once, the same as before.
    const file = path.join(path.dirname(systemFile), "system.lazy-test.mjs");
    fs.writeFileSync(file, changed);
    try {
      const { createSystem } = await import(file);
      const { defaultConfig } = await import("@chakra-ui/react");
      const made = createSystem(defaultConfig);
      const getter = Object.getOwnPropertyDescriptor(made, "_global")?.get;
      expect(getter).toBeTypeOf("function");
      expect(made._global).toBe(made._global);
      expect(JSON.stringify(made._global)).toContain("--chakra-colors-teal-700");
    } finally {
      fs.rmSync(file);
    }
  });

  it("leaves every other file alone and fails the build when Chakra UI's code has changed", () => {
    expect(transform("const _global = [];", "/x/other.js")).toBeNull();
    expect(() => transform("export function createSystem() {}")).toThrow(
      /no longer reads as lazyChakraGlobalStyles expects .*; written for @chakra-ui\/react 3\.37\.0$/,
    );
  });

  it("names the Chakra UI it was written for, the one installed: an upgrade is checked against them", () => {
    const installed = createRequire(import.meta.url)("@chakra-ui/react/package.json") as { version: string };
    expect(CHAKRA_UI_VERSION).toBe(installed.version);
  });
});

describe("the build's createSystem in steps", () => {
  const inSteps = (code: string, id = systemFile) =>
    (chakraSystemInSteps().transform as (code: string, id: string) => { code: string } | null)(code, id)?.code ?? null;

  it("pauses between merging, the token dictionary's phases, the utility and the rest, and makes the same system", async () => {
    // Both changes to createSystem, in the build's order, and the token dictionary's, beside Chakra UI's own files.
    const original = {
      system: fs.readFileSync(systemFile, "utf8"),
      dictionary: fs.readFileSync(dictionaryFile, "utf8"),
    };
    const changed = inSteps(transform(original.system) ?? "") ?? "";
    const dictionary = inSteps(original.dictionary, dictionaryFile) ?? "";
    expect(changed.split("\n").length).toBe(original.system.split("\n").length + 2);
    expect(dictionary.split("\n").length).toBe(original.dictionary.split("\n").length + 1);
    const file = path.join(path.dirname(systemFile), "system.steps-test.mjs");
    const dictionaryCopy = path.join(path.dirname(systemFile), "token-dictionary.steps-test.mjs");
    fs.writeFileSync(file, changed.replace("'./token-dictionary.js'", "'./token-dictionary.steps-test.mjs'"));
    fs.writeFileSync(dictionaryCopy, dictionary);
    try {
      const { createSystem } = await import(file);
      const { defaultBaseConfig } = await import("@chakra-ui/react");
      const { themeConfig } = await import("../../src/client/app/theme-config.ts");
      const steps = createSystem.inSteps(defaultBaseConfig, themeConfig);
      let pauses = 0;
      let step = steps.next();
      for (; !step.done; step = steps.next()) pauses += 1;
      expect(pauses).toBe(7);
      // The same as Chakra UI's own createSystem makes, in what a page renders with: tokens, recipes' styles, globals.
      const made = step.value;
      const whole = createSystem(defaultBaseConfig, themeConfig);
      expect(made.token("colors.teal.solid")).toBe(system.token("colors.teal.solid"));
      expect(made.token("colors.teal.solid")).toBe(whole.token("colors.teal.solid"));
      const button = { variant: "solid", size: "md", colorPalette: "teal" };
      expect(made.css(made.getRecipeFn("button")(button))).toEqual(system.css(system.getRecipeFn("button")(button)));
      expect(JSON.stringify(made._global)).toBe(JSON.stringify(system._global));
      expect(JSON.stringify(whole._global)).toBe(JSON.stringify(system._global));
    } finally {
      fs.rmSync(file);
      fs.rmSync(dictionaryCopy);
    }
  });

  it("leaves every other file alone and fails the build when Chakra UI's code has changed", () => {
    expect(inSteps("function createSystem(...configs) {}", "/x/other.js")).toBeNull();
    expect(() => inSteps("function createSystem(...configs) {}\nexport { createSystem, isValidSystem };")).toThrow(
      /no longer reads as chakraSystemInSteps expects \(import \{ createTokenDictionary \} from; const config/,
    );
    expect(() => inSteps("function createTokenDictionary(options) {}", dictionaryFile)).toThrow(
      /token-dictionary\.js no longer reads as chakraSystemInSteps expects \(function build\(\) \{;/,
    );
  });
});
