import { recipes, slotRecipes } from "@chakra-ui/react/theme";
import { cleanup } from "@testing-library/react";
import { afterAll, describe, expect, it } from "vitest";
import { appSystem } from "../../src/client/app/theme.ts";
import { withApiServer } from "./api-server.ts";
import { renderApp } from "./render-app.tsx";

const server = withApiServer();

// Components find their recipe by key; a key the sliced theme lacks (and Chakra's full theme has) renders unstyled,
// without a word. Every key asked for while the screens render is recorded here.
const asked = new Set<string>();
const missing = new Set<string>();
const watch = (name: "getRecipeFn" | "getSlotRecipeFn", has: (key: string) => boolean) => {
  const original = appSystem[name].bind(appSystem);
  (appSystem as unknown as Record<string, unknown>)[name] = (key: string, fallback?: unknown) => {
    asked.add(key);
    if (!has(key)) missing.add(key);
    return original(key, fallback as never);
  };
};
watch("getRecipeFn", (key) => appSystem.isRecipe(key) || !(key in recipes));
watch("getSlotRecipeFn", (key) => appSystem.isSlotRecipe(key) || !(key in slotRecipes));
afterAll(() => asked.clear());

describe("the sliced theme", () => {
  it("has the recipe of every component the screens render", async () => {
    const admin = await server.signUp({ firstName: "Thea" });
    const screens = [
      "/",
      "/posts",
      "/login",
      "/register",
      "/password-reset-token",
      "/create-post",
      `/profile/${admin.id}`,
      `/update-profile/${admin.id}`,
      "/update-password",
      "/notifications",
      "/notifications/settings",
      "/users",
      "/add-category",
      "/category-list",
      "/Settings",
      "/payments",
      "/stats",
      "/admin/stats",
      "/nowhere",
    ];
    for (const screen of screens) {
      await renderApp(screen, admin);
      cleanup();
    }
    // The screens did render styled components (the check itself is watching).
    expect(asked.size).toBeGreaterThan(10);
    expect([...missing]).toEqual([]);
  }, 60_000);
});
