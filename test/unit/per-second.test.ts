import { afterEach, expect, it, vi } from "vitest";
import { perSecond } from "../../src/server/infra/per-second.ts";

afterEach(() => {
  vi.useRealTimers();
});

it("lets its limit through each second and refuses the rest until the next second", () => {
  vi.useFakeTimers();
  // Milliseconds of the clock: 100 and 999 are the same second, 1000 the next.
  vi.setSystemTime(100);
  const budget = perSecond(5);
  const takes = () => Array.from({ length: 7 }, () => budget.take());
  expect(takes()).toEqual([true, true, true, true, true, false, false]);
  // Still the same second: refused, however often asked.
  vi.setSystemTime(999);
  expect(budget.take()).toBe(false);
  vi.setSystemTime(1000);
  expect(takes()).toEqual([true, true, true, true, true, false, false]);
});
