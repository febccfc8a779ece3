import path from "node:path";
import { expect, test } from "@playwright/test";

const SCREENS = path.resolve(import.meta.dirname, "../../test-results/screens");

test.describe("a visitor", () => {
  test("sees the landing hero, the navigation bar and the footer", async ({ page, isMobile }, testInfo) => {
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => message.type() === "error" && errors.push(message.text()));

    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Pen down your ideas by creating a blog" })).toBeVisible();
    await expect(page.getByText("Welcome to Penchain")).toBeVisible();
    await expect(page.getByText("Your blog must be free from racism and unhealthy words.")).toBeVisible();

    const main = page.getByRole("navigation", { name: "Main" });
    await expect(main.getByRole("link", { name: "Penchain" })).toHaveAttribute("href", "/");
    await expect(main.getByRole("link", { name: "New Blog" })).toHaveAttribute("href", "/create-post");
    await page.screenshot({ path: path.join(SCREENS, `home-${testInfo.project.name}.png`), fullPage: true });
    if (isMobile) {
      // On a phone the links fold into a menu.
      await main.getByRole("button", { name: "Open navigation" }).click();
      const items = page.getByRole("menuitem");
      // The spec's items, then Search (docs/product.md, "Search, drafts and scheduled posts": the phone menu has it too).
      await expect(items).toHaveText(["Home", "Create", "Blogs", "Register", "Login", "Search"]);
      await page.keyboard.press("Escape");
      await expect(page.getByRole("menu")).toBeHidden();
    } else {
      await expect(main.getByRole("listitem")).toHaveText(["Home", "Create", "Blogs", "Register", "Login"]);
      // Besides the link, the spec's Login button (on a phone it lives in the menu).
      await expect(main.getByRole("link", { name: "Login", exact: true })).toHaveCount(2);
    }
    await expect(page.getByRole("navigation", { name: "Footer" }).getByRole("link")).toHaveText([
      "Home",
      "Create Blog",
      "Blogs",
      "Register",
      "Login",
    ]);

    // The page fits the screen: nothing scrolls sideways.
    // Mobile emulation widens innerWidth to fit overflowing content, so compare with the viewport itself.
    const width = page.viewportSize()?.width ?? 0;
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(errors).toEqual([]);
  });

  test("follows Let's Explore to /posts, and is sent to /login from a member screen", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("link", { name: "Let's Explore" }).click();
    await expect(page).toHaveURL(/\/posts$/);
    await page.goto("/create-post");
    await expect(page).toHaveURL(/\/login$/);
    // A reload on a client route is served the app, not a 404.
    await page.goto("/posts/some-id");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  });
});

test("the API answers beside the app", async ({ request }) => {
  const health = await request.get("/api/health");
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: "ok", database: "ok", chain: "ok" });
  const config = await (await request.get("/api/config")).json();
  expect(config).toMatchObject({ chainId: 31337, feeWei: "10000000000000000" });
});

test("dark mode follows the system and can be toggled", async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: "dark" });
  const page = await context.newPage();
  await page.goto("/");
  await expect(page.locator("html")).toHaveClass(/dark/);
  const panel = () =>
    page.evaluate(() => getComputedStyle(document.querySelector("header") as Element).backgroundColor);
  const dark = await panel();
  await page.screenshot({ path: path.join(SCREENS, "home-dark.png") });
  await page.getByRole("button", { name: "Switch to light mode" }).click();
  await expect(page.locator("html")).toHaveClass(/light/);
  expect(await panel()).not.toBe(dark);
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/light/);
  await context.close();
});

test("a screen whose script cannot be fetched says so, and the rest of the site still works", async ({ page }) => {
  await page.goto("/");
  // A press starts the app (the theme's button is carried out once it is there), so the link below is the app's.
  await page.getByRole("button", { name: "Switch to dark mode" }).click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await page.route(/\/assets\/auth-[\w-]+\.js$/, (route) => route.abort());
  const footer = page.getByRole("contentinfo");
  await footer.getByRole("link", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("alert")).toContainText("This page could not be shown");
  await expect(page.getByRole("button", { name: "Reload the page" })).toBeVisible();
  await footer.getByRole("link", { name: "Home" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // Back at the failed screen once the network is back, the message's Reload fetches it again.
  await page.unroute(/\/assets\/auth-[\w-]+\.js$/);
  await footer.getByRole("link", { name: "Login" }).click();
  await page.getByRole("button", { name: "Reload the page" }).click();
  await expect(page.getByRole("heading", { name: "Login to your account" })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveCount(0);
});
