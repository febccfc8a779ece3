import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isBuildOf, recordBuildOf, sourcesDigest } from "../../scripts/lib/client-build.ts";

let root = "";
const write = (file: string, content: string, secondsAgo = 0) => {
  const full = path.join(root, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, content);
  const at = new Date(Date.now() - secondsAgo * 1000);
  fs.utimesSync(full, at, at);
};
/** Whether `npm start` would find the build fresh now. */
const fresh = () => isBuildOf(root, sourcesDigest(root));

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-build-"));
  write("src/client/main.tsx", "export {};", 60);
  write("src/shared/constants.ts", "export const A = 1;", 60);
  write("vite.config.ts", "export default {};", 60);
  write("scripts/lib/global-styles.ts", "export {};", 60);
  write("scripts/lib/chakra-ui-patches.ts", "export {};", 60);
  write("scripts/lib/react-router-patches.ts", "export {};", 60);
  write("package-lock.json", '{"lockfileVersion":3}', 60);
  write("dist/client/index.html", "<!doctype html>", 30);
  write("dist/server/entry-server.js", "export {};", 30);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("whether npm start must build the client", () => {
  it("trusts a build by hand that is newer than every source, and not one older than a source", () => {
    expect(fresh()).toBe(true);
    write("src/shared/constants.ts", "export const A = 2;");
    expect(fresh()).toBe(false);
  });

  it("counts the build's own code that writes the global styles as a source", () => {
    recordBuildOf(root, sourcesDigest(root));
    expect(fresh()).toBe(true);
    write("scripts/lib/global-styles.ts", "export const changed = true;", 60);
    expect(fresh()).toBe(false);
  });

  it("counts Chakra UI's and React Router's build-time patches as sources", () => {
    for (const file of ["scripts/lib/chakra-ui-patches.ts", "scripts/lib/react-router-patches.ts"]) {
      recordBuildOf(root, sourcesDigest(root));
      expect(fresh()).toBe(true);
      write(file, "export const changed = true;", 60);
      expect(fresh()).toBe(false);
    }
  });

  it("builds when a built file is missing", () => {
    fs.rmSync(path.join(root, "dist/server/entry-server.js"));
    expect(fresh()).toBe(false);
  });

  it("goes by content once it has recorded a build: npm install rewriting the same lock builds nothing", () => {
    recordBuildOf(root, sourcesDigest(root));
    write("package-lock.json", '{"lockfileVersion":3}');
    write("src/client/main.tsx", "export {};");
    expect(fresh()).toBe(true);
    write("src/client/main.tsx", "export const changed = true;", 120);
    expect(fresh()).toBe(false);
  });

  it("reads no installed package as a source, and a renamed file is a change", () => {
    recordBuildOf(root, sourcesDigest(root));
    write("src/client/node_modules/.vite/results.json", "{}");
    expect(fresh()).toBe(true);
    fs.renameSync(path.join(root, "src/client/main.tsx"), path.join(root, "src/client/start.tsx"));
    expect(fresh()).toBe(false);
  });

  it("forgets the recorded build when a build empties dist/server", () => {
    recordBuildOf(root, "an older digest");
    expect(fresh()).toBe(false);
    fs.rmSync(path.join(root, "dist/server"), { recursive: true });
    write("dist/server/entry-server.js", "export {};");
    write("dist/client/index.html", "<!doctype html>");
    expect(fresh()).toBe(true);
  });
});
