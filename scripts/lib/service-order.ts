import fs from "node:fs";
import path from "node:path";

/**
 * The one order of the services' rooms, lowest first: a room imports only rooms before it. A name is a folder of
 * `src/server/services/` or, for a capability small enough to be one file, that file without `.ts`.
 */
export const SERVICE_ORDER = [
  "core",
  "one-time-tokens",
  "settings",
  "tokens",
  "webhooks",
  "stats",
  "blocks",
  "leaving",
  "subscribers",
  "notifications",
  "moderation",
  "payments",
  "provenance",
  "content",
  "federation",
  "auth",
  "users",
  "public-reads",
  "importing",
  "messages",
] as const;

const ROOT = path.resolve(import.meta.dirname, "../..");
const SERVICES = "src/server/services";
/** What every override of a room of the services begins with (the services' own override is `${SERVICES}/**`). */
export const SERVICES_GLOB = `${SERVICES}/`;

/** Every room of `src/server/services/`, as SERVICE_ORDER names it. */
export function serviceRooms(root: string) {
  return fs
    .readdirSync(path.join(root, SERVICES), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() || /^[^.]+\.ts$/.test(entry.name))
    .map((entry) => entry.name.replace(/\.ts$/, ""))
    .sort();
}

const roomOf = (file: string) => {
  const [first, ...rest] = path.relative(SERVICES, file).split(path.sep);
  return rest.length === 0 ? (first ?? "").replace(/\.tsx?$/, "") : first;
};

/** Every import from one room of the services to another, read from the code: `from → to`, with the files. */
export function serviceImports(root: string) {
  const edges = new Map<string, string[]>();
  const walk = (dir: string): string[] =>
    fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      return entry.isDirectory() ? walk(file) : /\.tsx?$/.test(entry.name) ? [file] : [];
    });
  for (const file of walk(SERVICES)) {
    const source = fs.readFileSync(path.join(root, file), "utf8");
    for (const match of source.matchAll(/\bfrom\s*["'](\.[^"']+)["']|\bimport\(\s*["'](\.[^"']+)["']\s*\)/g)) {
      const target = path.normalize(path.join(path.dirname(file), match[1] ?? match[2] ?? ""));
      if (!target.startsWith(`${SERVICES}/`)) continue;
      const [from, to] = [roomOf(file), roomOf(target)];
      if (from === to) continue;
      const key = `${from} → ${to}`;
      edges.set(key, [...(edges.get(key) ?? []), `${file} → ${target}`]);
    }
  }
  return edges;
}

const BASE = [
  {
    group: ["**/client/**", "**/client"],
    message: "The server never imports the client: share code through src/shared.",
  },
  { group: ["**/scripts/**"], message: "The server never imports scripts." },
  {
    group: ["**/plugins/**", "**/routes/**", "**/app.ts", "**/main.ts"],
    message: "Services hold the rules: they take Deps and never reach plugins, routes or the app.",
  },
];

/** biome.json's overrides that refuse an import of a room above the importing one, one per room. */
export function serviceOverrides() {
  return SERVICE_ORDER.slice(0, -1).map((room, index) => {
    const above = SERVICE_ORDER.slice(index + 1);
    const isFile = (name: string) => !fs.existsSync(path.join(ROOT, SERVICES, name));
    // A room's file imports `../x/…` (or `../../x/…` from a folder within); a one-file room's, `./x/…`.
    const group = isFile(room)
      ? above.flatMap((name) => (isFile(name) ? [`./${name}.ts`] : [`./${name}/**`]))
      : above.flatMap((name) =>
          isFile(name) ? [`../${name}.ts`, `../../${name}.ts`] : [`../${name}/**`, `../../${name}/**`],
        );
    return {
      includes: [isFile(room) ? `${SERVICES_GLOB}${room}.ts` : `${SERVICES_GLOB}${room}/**`],
      linter: {
        rules: {
          style: {
            noRestrictedImports: {
              level: "error",
              options: {
                patterns: [
                  ...BASE,
                  {
                    group,
                    message: `The services import one way (ARCHITECTURE.md): ${room} reaches only the rooms below it.`,
                  },
                ],
              },
            },
          },
        },
      },
    };
  });
}
