import { expect, it } from "vitest";
import { dayOf, perPeriod } from "../../src/server/services/stats/read-from-request.ts";

const midnight = Date.parse("2026-03-29T00:00:00Z");
const HOUR = 3_600_000;
// Back and forth across period edges, and far away: a string made once must never outlive its period.
const times = [
  midnight - 1,
  midnight,
  midnight - 1,
  midnight + HOUR - 1,
  midnight + HOUR,
  midnight + 24 * HOUR - 1,
  midnight + 24 * HOUR,
  midnight,
  Date.parse("1999-12-31T23:59:59.999Z"),
  Date.parse("2000-01-01T00:00:00Z"),
  midnight + 3 * HOUR + 59_999,
];

it("dayOf gives each time its UTC day, across midnights in either order", () => {
  for (const ms of times) {
    expect(dayOf(new Date(ms)), new Date(ms).toISOString()).toBe(new Date(ms).toISOString().slice(0, 10));
  }
});

it("perPeriod names each time's own period, an hour as the rollups key it", () => {
  const hourOf = perPeriod(HOUR, (start) => start.toISOString());
  for (const ms of times) {
    expect(hourOf(new Date(ms)), new Date(ms).toISOString()).toBe(new Date(Math.floor(ms / HOUR) * HOUR).toISOString());
  }
});
