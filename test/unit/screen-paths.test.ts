import { describe, expect, it } from "vitest";
import { SCREENS } from "../../src/client/app/screen-table.ts";
import { isScreenPath, SCREEN_PATHS } from "../../src/shared/screens.ts";

describe("the addresses the server knows the client has a screen for", () => {
  it("are exactly the client's screens", () => {
    expect(SCREEN_PATHS.map((screen) => screen.path).sort()).toEqual(SCREENS.map((screen) => screen.path).sort());
  });

  it("match as the router does: any case, one segment per name, a trailing slash or none", () => {
    expect(isScreenPath("/SETTINGS")).toBe(true);
    expect(isScreenPath("/posts/abc/")).toBe(true);
    expect(isScreenPath("/posts/")).toBe(true);
    expect(isScreenPath("/posts/abc/def")).toBe(false);
    expect(isScreenPath("/profile//")).toBe(false);
    expect(isScreenPath("/nowhere")).toBe(false);
    expect(isScreenPath("/")).toBe(true);
  });
});
