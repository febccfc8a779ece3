import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { ChakraProvider, type ChakraProviderProps } from "@chakra-ui/react";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { globalStylesOf } from "../../scripts/lib/global-styles.ts";
import { appSystem, system } from "../../src/client/app/theme.ts";
import { globalStyles, lazyChakraGlobalStyles } from "../../vite.config.ts";

const systemFile = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@chakra-ui/react/package.json")),
  "dist/esm/styled-system/system.js",
);
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
    expect(() => transform("export function createSystem() {}")).toThrow(/no longer makes its global styles/);
  });
});
