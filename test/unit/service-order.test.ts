import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SERVICE_ORDER, serviceImports, serviceOverrides, serviceRooms } from "../../scripts/lib/service-order.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

// The services' folder graph, drawn from the code: every import between two rooms points down the one order.
describe("the services' order", () => {
  it("names every room of src/server/services once", () => {
    expect([...SERVICE_ORDER].sort()).toEqual(serviceRooms(ROOT));
  });

  it("has no import from a room to one above it", () => {
    const rank = (room: string) => SERVICE_ORDER.indexOf(room as (typeof SERVICE_ORDER)[number]);
    const upward = [...serviceImports(ROOT)].filter(([edge]) => {
      const [from = "", to = ""] = edge.split(" → ");
      return rank(to) >= rank(from);
    });
    expect(upward).toEqual([]);
  });

  it("is the order biome.json enforces", () => {
    const biome = JSON.parse(fs.readFileSync(path.join(ROOT, "biome.json"), "utf8"));
    const rooms = biome.overrides.filter((override: { includes: string[] }) =>
      override.includes.some((glob) => glob.startsWith("src/server/services/") && glob !== "src/server/services/**"),
    );
    // `npx tsx scripts/service-order.ts` writes them again after a change to the order.
    expect(rooms).toEqual(serviceOverrides());
  });

  it("is the order ARCHITECTURE.md writes", () => {
    const map = fs.readFileSync(path.join(ROOT, "ARCHITECTURE.md"), "utf8");
    expect(map).toContain(`\`${SERVICE_ORDER.join(" ← ")}\``);
  });
});
