import { afterEach, describe, expect, it } from "vitest";
import { formatDate, formatLocalDateTime, formatLocalTime, formatUtcOffset } from "../../src/client/lib/format.ts";

describe("dates spelled without Intl", () => {
  const zone = process.env.TZ;
  afterEach(() => {
    // Assigning undefined would set the zone "undefined".
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it("formatDate writes the spec's day, short month and year in UTC, as en-GB does", () => {
    expect(formatDate("2026-11-21T10:00:00.000Z")).toBe("21 Nov 2026");
    // Late evening west of Greenwich is already the next day in UTC, on the server and in every browser.
    expect(formatDate("2026-11-21T23:30:00-05:00")).toBe("22 Nov 2026");
    const english = new Intl.DateTimeFormat("en-GB", {
      day: "numeric",
      month: "short",
      year: "numeric",
      timeZone: "UTC",
    });
    for (let day = 0; day < 366; day += 1) {
      const at = new Date(Date.UTC(2028, 0, 1 + day, 12));
      // Locale data differs on September alone: "Sept" in Node's, "Sep" in older ones; one spelling here.
      expect(formatDate(at.toISOString())).toBe(english.format(at).replace("Sept", "Sep"));
    }
  });

  it("formatLocalDateTime and formatLocalTime use the reader's own zone", () => {
    process.env.TZ = "Asia/Kolkata";
    expect(formatLocalDateTime("2026-09-23T20:05:00.000Z")).toBe("24 Sep 2026, 01:35");
    expect(formatLocalTime(new Date("2026-09-23T03:04:00.000Z"))).toBe("08:34");
    process.env.TZ = "America/New_York";
    expect(formatLocalDateTime("2026-01-01T04:59:00.000Z")).toBe("31 Dec 2025, 23:59");
  });

  it("formatUtcOffset names the offset as a zone would be, with a true minus sign", () => {
    const at = (offset: number) => ({ getTimezoneOffset: () => offset }) as Date;
    expect(formatUtcOffset(at(0))).toBe("UTC");
    expect(formatUtcOffset(at(-60))).toBe("UTC+1");
    expect(formatUtcOffset(at(-330))).toBe("UTC+5:30");
    expect(formatUtcOffset(at(300))).toBe("UTC−5");
    expect(formatUtcOffset(at(570))).toBe("UTC−9:30");
    process.env.TZ = "Asia/Kathmandu";
    expect(formatUtcOffset(new Date("2026-06-01T00:00:00Z"))).toBe("UTC+5:45");
  });
});
