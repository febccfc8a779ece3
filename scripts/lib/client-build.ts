import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** What the web client and the server renderer are built from, and what the build writes. */
const SOURCES = [
  "src/client",
  "src/shared",
  "vite.config.ts",
  "scripts/lib/global-styles.ts",
  "scripts/lib/chakra-ui-patches.ts",
  "scripts/lib/react-router-patches.ts",
  "package-lock.json",
];
const BUILT = ["dist/client/index.html", "dist/server/entry-server.js"];
/**
 * The digest of the sources the build in dist was made from, written by `npm start` after it checks or builds; in a
 * folder every build empties (and the server does not serve), so a build by hand leaves no stale digest behind.
 */
const STAMP = "dist/server/sources.sha256";

/** The files under `target` (itself, if a file), in a stable order; installed packages are not sources. */
function filesUnder(target: string): string[] {
  if (!fs.statSync(target).isDirectory()) return [target];
  return fs
    .readdirSync(target)
    .filter((name) => name !== "node_modules")
    .sort()
    .flatMap((name) => filesUnder(path.join(target, name)));
}

const sourceFiles = (root: string) => SOURCES.flatMap((source) => filesUnder(path.join(root, source)));

/** A digest of every source file's name and content. */
export function sourcesDigest(root: string): string {
  const hash = crypto.createHash("sha256");
  for (const file of sourceFiles(root)) hash.update(`${path.relative(root, file)}\0`).update(fs.readFileSync(file));
  return hash.digest("hex");
}

/**
 * Whether the build in `root`/dist is of the sources whose digest is `digest`: the digest recorded with it says so,
 * or, with none recorded (a build by `npm run build`), no source is newer than it. Content decides where it can, not
 * times alone: `npm install` rewrites an unchanged package-lock.json, and a checkout touches files it leaves as they
 * were.
 */
export function isBuildOf(root: string, digest: string): boolean {
  const built = BUILT.map((file) => path.join(root, file));
  if (!built.every((file) => fs.existsSync(file))) return false;
  const stamp = path.join(root, STAMP);
  if (fs.existsSync(stamp)) return fs.readFileSync(stamp, "utf8") === digest;
  const oldestBuilt = Math.min(...built.map((file) => fs.statSync(file).mtimeMs));
  return sourceFiles(root).every((file) => fs.statSync(file).mtimeMs < oldestBuilt);
}

/** Records that the build in `root`/dist is of the sources whose digest is `digest`. */
export function recordBuildOf(root: string, digest: string) {
  const stamp = path.join(root, STAMP);
  if (!fs.existsSync(stamp) || fs.readFileSync(stamp, "utf8") !== digest) fs.writeFileSync(stamp, digest);
}
