import { render, waitFor } from "@testing-library/react";
import { useLayoutEffect } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { COLOR_MODE_STORAGE_KEY } from "#shared/constants.ts";
import { useColorMode } from "../../src/client/lib/color-mode.ts";
import { HydrationBoundary } from "../../src/client/lib/use-hydrated.tsx";

// A reader whose system is in dark mode, on a page the server rendered: main.tsx has set <html> to dark before the
// first paint, and the app hydrates the page.
const root = document.documentElement;
let classes: string[] = [];
// Every class <html> has had: a record's old value is the class before each change (the callback runs later).
const observer = new MutationObserver((records) => classes.push(...records.map((record) => record.oldValue ?? "")));

beforeEach(() => {
  window.matchMedia = ((query: string) => ({
    matches: query === "(prefers-color-scheme: dark)",
    addEventListener() {},
    removeEventListener() {},
  })) as unknown as typeof window.matchMedia;
  root.className = "dark";
  classes = [];
  observer.observe(root, { attributes: true, attributeFilter: ["class"], attributeOldValue: true });
});
afterEach(() => observer.disconnect());

function ColorMode() {
  useColorMode();
  return null;
}

/** A press on the mode button that arrives while the page is still hydrating (one replayed as the app starts). */
function PressWhileHydrating() {
  const { toggle } = useColorMode();
  // biome-ignore lint/correctness/useExhaustiveDependencies: pressed once, in the hydrating commit.
  useLayoutEffect(() => toggle(), []);
  return null;
}

describe("the colour mode while a server-rendered page hydrates", () => {
  it("leaves <html> dark for a reader in dark mode: no flash of light", async () => {
    render(
      <HydrationBoundary hydrating>
        <ColorMode />
      </HydrationBoundary>,
    );
    await waitFor(() => expect(root.style.colorScheme).toBe("dark"));
    expect([...classes, root.className].filter((name) => name.includes("light"))).toEqual([]);
  });

  it("a press during hydration switches to light, and light is what is stored", async () => {
    render(
      <HydrationBoundary hydrating>
        <PressWhileHydrating />
      </HydrationBoundary>,
    );
    await waitFor(() => expect(root.className).toBe("light"));
    expect(localStorage.getItem(COLOR_MODE_STORAGE_KEY)).toBe('"light"');
  });
});
