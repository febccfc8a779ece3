import { devices } from "@playwright/test";
import { logIn, registerUser } from "./fixtures/accounts.ts";
import { adminSession } from "./fixtures/admin.ts";
import { seriousViolations } from "./fixtures/axe.ts";
import { expect, test } from "./fixtures/readers.ts";
import { auth, chooseInAccountMenu, shot, uniqueTag } from "./fixtures/screens.ts";

test("an author opens Stats after readers came from two sources and sees both in the chart and the table", async ({
  page,
  newReader,
  request,
}) => {
  test.setTimeout(90_000);
  const tag = uniqueTag();
  const admin = await adminSession(request);
  const category = `Stats ${tag}`;
  await request.post("/api/category", { data: { title: category }, headers: auth(admin) });
  const writer = await registerUser(request, { firstName: "Stella" });
  const title = `Counted reads ${tag}`;
  const post = await (
    await request.post("/api/posts", {
      data: { title, description: "<p>Read me.</p>", category, isFeatured: "false" },
      headers: auth(writer),
    })
  ).json();

  // A reader from a news site on a desktop, and one from Mastodon on a phone through a campaign's link.
  const desktop = await newReader({ ...devices["Desktop Chrome"] });
  await desktop.goto(`/posts/${post.id}`, { referer: "https://news.example/front" });
  await expect(desktop.getByRole("heading", { name: title })).toBeVisible();
  const phone = await newReader({ ...devices["Pixel 7"] });
  // Its campaign carries markup: shown as text, never as markup.
  const campaign = `<img src=x onerror=alert(1)>spring-${tag}`;
  await phone.goto(
    `/posts/${post.id}?utm_source=mastodon&utm_medium=social&utm_campaign=${encodeURIComponent(campaign)}`,
    {
      referer: "https://mastodon.example/@friend/1",
    },
  );
  await expect(phone.getByRole("heading", { name: title })).toBeVisible();
  // A signed-in reader reaches the post inside the app: the app's beacon counts that read.
  const member = await registerUser(request, { firstName: "Mabel" });
  const inApp = await newReader({ ...devices["Desktop Chrome"] });
  await logIn(inApp, member.email);
  await inApp.goto(`/posts?category=${encodeURIComponent(category)}`);
  await inApp.getByRole("link", { name: title }).first().click();
  await expect(inApp).toHaveURL(new RegExp(`/posts/${post.id}$`));
  await expect(inApp.getByRole("heading", { name: title })).toBeVisible();

  // The author opens Stats from the account menu and finds both sources, in the table and drawn.
  await logIn(page, writer.email);
  await chooseInAccountMenu(page, "Stats", /\/stats$/);
  await expect(page.getByRole("heading", { name: "Your stats" })).toBeVisible();
  const sources = page.getByRole("region", { name: "Sources" });
  await expect(async () => {
    await page.reload();
    await expect(sources.getByRole("cell", { name: "news.example" })).toBeVisible({ timeout: 2_000 });
    await expect(sources.getByRole("cell", { name: "mastodon.example" })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await shot(page, "stats-author");
  const readers = page.getByRole("region", { name: "Readers" });
  await expect(readers.locator("svg.recharts-surface path.recharts-curve")).toHaveCount(2);
  const views = page.getByRole("listitem").filter({ has: page.getByText("Views", { exact: true }) });
  await expect(views).toContainText("3");
  await expect(
    page.getByRole("region", { name: "Campaigns" }).getByRole("cell", { name: `spring-${tag}` }),
  ).toBeVisible();
  await expect(page.getByRole("region", { name: "Devices" }).getByRole("cell", { name: "Phone" })).toBeVisible();
  await shot(page, "stats-author");

  // The CSV has the same days.
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download CSV" }).click();
  expect((await download).suggestedFilename()).toBe("stats.csv");

  // From the post's page, its own stats.
  await page.goto(`/posts/${post.id}`);
  await page.getByRole("link", { name: "Stats of this post" }).click();
  await expect(page).toHaveURL(new RegExp(`/stats/posts/${post.id}$`));
  await expect(page.getByRole("region", { name: "Sources" }).getByRole("cell", { name: "news.example" })).toBeVisible();
  await page.getByLabel("Period", { exact: true }).selectOption("48h");
  await expect(page.getByRole("columnheader", { name: "Hour (UTC)" }).first()).toBeVisible();
});

test("the stats screens pass axe-core, light and dark, on a phone and a desktop, and fit the phone", async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const admin = await adminSession(request);
  const category = `Axe stats ${uniqueTag()}`;
  await request.post("/api/category", { data: { title: category }, headers: auth(admin) });
  const post = await (
    await request.post("/api/posts", {
      data: { title: "Measured", description: "<p>Read.</p>", category, isFeatured: "false" },
      headers: auth(admin),
    })
  ).json();
  const found: string[] = [];
  for (const mode of ["light", "dark"] as const) {
    for (const size of [
      { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true },
      { viewport: { width: 1280, height: 900 } },
    ]) {
      const context = await browser.newContext({ colorScheme: mode, bypassCSP: true, ...size });
      await context.addInitScript((value) => localStorage.setItem("userInfo", value), JSON.stringify(admin));
      const page = await context.newPage();
      for (const screen of ["/stats", "/admin/stats", `/stats/posts/${post.id}`]) {
        await page.goto(screen, { waitUntil: "load" });
        // A stats screen renders in the browser with the charts' chunk, as a transition that yields on a busy machine.
        await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible({ timeout: 15_000 });
        await expect(page.getByRole("region", { name: "Readers" })).toBeVisible({ timeout: 15_000 });
        for (const violation of await seriousViolations(page)) {
          found.push(`${mode} ${size.viewport.width}px ${screen}: ${violation}`);
        }
        if (size.viewport.width === 360) {
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
        }
        if (mode === "dark" && screen === "/admin/stats") await shot(page, `site-stats-${size.viewport.width}`);
      }
      await context.close();
    }
  }
  expect(found).toEqual([]);
});
