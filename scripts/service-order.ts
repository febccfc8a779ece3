// Writes biome.json's overrides of the services' order from scripts/lib/service-order.ts (after a change to it).
import fs from "node:fs";
import path from "node:path";
import { SERVICES_GLOB, serviceOverrides } from "./lib/service-order.ts";

const file = path.resolve(import.meta.dirname, "../biome.json");
const biome = JSON.parse(fs.readFileSync(file, "utf8"));
const kept = biome.overrides.filter(
  (override: { includes: string[] }) =>
    !override.includes.some((glob) => glob.startsWith(SERVICES_GLOB) && glob !== `${SERVICES_GLOB}**`),
);
const at = kept.findIndex((override: { includes: string[] }) => override.includes.includes("src/server/services/**"));
kept.splice(at + 1, 0, ...serviceOverrides());
biome.overrides = kept;
fs.writeFileSync(file, `${JSON.stringify(biome, null, 2)}\n`);
