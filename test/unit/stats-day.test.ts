import { expect, it } from "vitest";
import { dayOf } from "../../src/server/services/stats/reads.ts";

it("dayOf gives each time its UTC day, across midnights in either order", () => {
  const midnight = Date.parse("2026-03-29T00:00:00Z");
  const times = [
    midnight - 1,
    midnight,
    midnight - 1,
    midnight + 86_399_999,
    midnight + 86_400_000,
    midnight,
    Date.parse("1999-12-31T23:59:59.999Z"),
    Date.parse("2000-01-01T00:00:00Z"),
    midnight + 3_600_000,
  ];
  for (const ms of times)
    expect(dayOf(new Date(ms)), new Date(ms).toISOString()).toBe(new Date(ms).toISOString().slice(0, 10));
});
