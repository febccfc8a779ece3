// Node 22 re-reads a package's whole `package.json` for every ES module of it an import resolves: finding the file's
// format, it spreads the package's scope data, which parses the `exports` map each time. drizzle-orm's is 179 kB and
// the server loads about 200 of its files, so `npm start` spent 0.6 s (of 4.4) in that parse alone. This hook
// resolves drizzle-orm's imports of its own files (relative `.js` specifiers that stay inside the package) by URL
// arithmetic, with the format its `package.json` gives, read once; everything else goes to Node as before.
import fs from "node:fs";
import { createRequire, registerHooks } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** The package's root as a file URL ending in `/`, if it is made of ES modules; undefined otherwise. */
export function esmPackageRoot(packageName: string, from: string): string | undefined {
  // Its `exports` may not list `package.json`: found from its entry point, up.
  let dir = path.dirname(createRequire(from).resolve(packageName));
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    if (path.dirname(dir) === dir) return undefined;
    dir = path.dirname(dir);
  }
  const { name, type } = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  return name === packageName && type === "module" ? pathToFileURL(`${dir}${path.sep}`).href : undefined;
}

/** What Node would resolve `specifier` imported by `parentURL` to, when both are files of the package at `root`. */
export function resolveWithin(root: string, specifier: string, parentURL: string | undefined) {
  if (!parentURL?.startsWith(root) || !/^\.\.?\//.test(specifier) || !specifier.endsWith(".js")) return undefined;
  const url = new URL(specifier, parentURL).href;
  return url.startsWith(root) ? { url, format: "module" as const, shortCircuit: true } : undefined;
}

/** Registers the hook for drizzle-orm (as this project installs it); a no-op if its package changes shape. */
export function registerDrizzleResolve() {
  const root = esmPackageRoot("drizzle-orm", import.meta.filename);
  if (!root) return;
  registerHooks({
    resolve: (specifier, context, nextResolve) =>
      resolveWithin(root, specifier, context.parentURL) ?? nextResolve(specifier, context),
  });
}
