import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { registerUser } from "./fixtures/accounts.ts";
import { ADMIN, adminSession } from "./fixtures/admin.ts";
import { seriousViolations } from "./fixtures/axe.ts";
import { uniqueTag } from "./fixtures/screens.ts";

test("every screen passes axe-core with no serious or critical violations", async ({ browser, request }) => {
  // Some 50 screens, each checked by axe-core, on two shared cores: about two minutes, given room for a busy machine.
  test.setTimeout(420_000);
  const tag = uniqueTag();
  const admin = await adminSession(request);
  const auth = { authorization: `Bearer ${admin.token}` };
  await request.post("/api/category", { data: { title: `Axe ${tag}` }, headers: auth });
  const post = await (
    await request.post("/api/posts", {
      data: { title: `Accessible ${tag}`, description: "<p>Text</p>", category: `Axe ${tag}`, isFeatured: "false" },
      headers: auth,
    })
  ).json();
  const comment = await (
    await request.post("/api/comments", { data: { postId: post.id, description: "A comment" }, headers: auth })
  ).json();
  // A report, so the moderators' queue has an entry to check.
  const reporter = await registerUser(request, { firstName: "Reporter" });
  await request.post("/api/reports", {
    data: { kind: "comment", id: comment.id, rule: "spam", note: "An axe check" },
    headers: { authorization: `Bearer ${reporter.token}` },
  });
  const category = (await (await request.get("/api/category?limit=100")).json()).items.find(
    (item: { title: string }) => item.title === `Axe ${tag}`,
  );

  const visitorScreens = [
    "/",
    "/posts",
    `/posts/${post.id}`,
    "/login",
    "/register",
    "/password-reset-token",
    "/nowhere",
    `/search?q=accessible`,
    // An unsubscribe link's page (a made-up token: the page then says the link is not valid).
    `/unsubscribe/${admin.id}/like/${"0".repeat(32)}`,
    "/rules",
    "/moderation/log",
    // An appeal link's page (a made-up token: the page then says the link is not valid).
    `/appeal/${crypto.randomUUID()}/${"0".repeat(32)}`,
  ];
  const memberScreens = [
    "/posts",
    `/posts/${post.id}`,
    "/create-post",
    `/profile/${admin.id}`,
    `/update-profile/${admin.id}`,
    "/upload-profile-photo",
    "/update-password",
    `/update-post/${post.id}`,
    `/search?q=accessible&category=${encodeURIComponent(`Axe ${tag}`)}`,
    "/users",
    "/add-category",
    "/category-list",
    `/update-category/${category.id}`,
    "/Settings",
    "/payments",
    "/notifications",
    "/notifications/settings",
    "/posts?feed=following",
    "/rules",
    "/moderation",
    "/decisions",
    "/settings/blocks",
    "/settings/webhooks",
    // Someone else's profile, with Block, Mute and Report.
    `/profile/${reporter.id}`,
  ];
  const session = await (await request.post("/api/users/login", { data: ADMIN })).json();
  const found: string[] = [];
  for (const [signedIn, screens] of [
    [false, visitorScreens],
    [true, memberScreens],
  ] as const) {
    for (const mode of ["light", "dark"]) {
      // axe is injected as a script the site's CSP would refuse.
      const context = await browser.newContext({ colorScheme: mode as "light" | "dark", bypassCSP: true });
      if (signedIn)
        await context.addInitScript((value) => localStorage.setItem("userInfo", value), JSON.stringify(session));
      const page = await context.newPage();
      for (const screen of screens) {
        // A signed-in page keeps a stream open (its live unread count), so the network is never idle: the page is
        // taken as it stands once nothing on it is loading any more.
        await page.goto(screen, { waitUntil: signedIn ? "load" : "networkidle" });
        // Signed in: the bar is theirs once the page has taken the session in (and loaded what it then shows).
        if (signedIn) await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();
        await expect(page.locator("main")).not.toBeEmpty();
        await expect(page.getByRole("status").or(page.getByLabel(/^Loading/))).toHaveCount(0);
        for (const violation of await seriousViolations(page)) found.push(`${mode} ${screen}: ${violation}`);
      }
      await context.close();
    }
  }
  expect(found).toEqual([]);
});

test("the audience screens pass axe-core on a phone too, light and dark", async ({ browser, request }) => {
  const session = await (await request.post("/api/users/login", { data: ADMIN })).json();
  const found: string[] = [];
  for (const mode of ["light", "dark"] as const) {
    const context = await browser.newContext({
      colorScheme: mode,
      bypassCSP: true,
      viewport: { width: 360, height: 780 },
      isMobile: true,
      hasTouch: true,
    });
    await context.addInitScript((value) => localStorage.setItem("userInfo", value), JSON.stringify(session));
    const page = await context.newPage();
    for (const screen of ["/notifications", "/notifications/settings", "/posts?feed=following"]) {
      await page.goto(screen, { waitUntil: "load" });
      await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();
      await expect(page.locator("main")).not.toBeEmpty();
      await expect(page.getByRole("status").or(page.getByLabel(/^Loading/))).toHaveCount(0);
      for (const violation of await seriousViolations(page)) found.push(`${mode} ${screen}: ${violation}`);
      // The page fits the phone: nothing scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    }
    await context.close();
  }
  expect(found).toEqual([]);
});
