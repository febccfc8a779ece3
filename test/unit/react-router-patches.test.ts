import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pureReactRouterComponents, REACT_ROUTER_VERSION } from "../../scripts/lib/react-router-patches.ts";

const folder = path.join(
  path.dirname(createRequire(import.meta.url).resolve("react-router/package.json")),
  "dist/production",
);
const chunk = path.join(
  folder,
  fs
    .readdirSync(folder)
    .find(
      (name) => /^chunk-.*\.mjs$/.test(name) && /var Form = /.test(fs.readFileSync(path.join(folder, name), "utf8")),
    ) ?? "",
);
const transform = (code: string, id = chunk) =>
  (pureReactRouterComponents().transform as (code: string, id: string) => { code: string } | null)(code, id)?.code ??
  null;

describe("the build's change to React Router", () => {
  it("marks its components and contexts pure and drops their display names, line for line", () => {
    expect(JSON.parse(fs.readFileSync(path.join(folder, "../../package.json"), "utf8")).version).toBe(
      REACT_ROUTER_VERSION,
    );
    const code = fs.readFileSync(chunk, "utf8");
    const changed = transform(code) ?? "";
    expect(changed).toContain("var Form = /* @__PURE__ */ React");
    expect(changed).toContain("var Link = /* @__PURE__ */ React");
    expect(changed).toMatch(/var NavigationContext = \/\* @__PURE__ \*\/ React\d*\.createContext\(/);
    expect(changed).not.toMatch(/^\w+\.displayName = /m);
    expect(changed.split("\n")).toHaveLength(code.split("\n").length);
  });

  it("leaves every other file alone and fails the build when React Router's code has changed", () => {
    expect(transform("var Form = React.forwardRef(() => null);", "/x/other.mjs")).toBeNull();
    expect(() => transform("var Form = forwardRef(() => null);")).toThrow(/React Router/);
  });
});
