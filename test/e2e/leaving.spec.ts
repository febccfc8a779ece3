import { expect, test } from "@playwright/test";
import { logIn, PASSWORD, registerUser } from "./fixtures/accounts.ts";
import { seriousViolations } from "./fixtures/axe.ts";
import { linkFromMail, mailSays } from "./fixtures/outbox.ts";
import { chooseInAccountMenu, shot } from "./fixtures/screens.ts";

// axe-core is injected as a script of its own.
test.use({ bypassCSP: true });

test("a user downloads their data, then asks to close their account, is signed out with the date, and keeps it by signing in again", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const user = await registerUser(request, { firstName: "Leona" });
  await logIn(page, user.email);
  await chooseInAccountMenu(page, "Your data and account", /\/settings\/account$/);
  // First the data: the archive is prepared in the background, and its link comes by mail.
  const data = page.getByRole("region", { name: "Download my data" });
  await data.getByRole("button", { name: "Download my data" }).click();
  await expect(data.getByRole("status")).toContainText("Ready: we e-mailed you a link. It works once", {
    timeout: 20_000,
  });
  const link = await linkFromMail(user.email, "api/exports/[0-9a-f-]{36}/download");
  const archive = await request.get(link);
  expect(archive.status()).toBe(200);
  expect(archive.headers()["content-type"]).toBe("application/zip");
  expect((await archive.body()).subarray(0, 2).toString("latin1")).toBe("PK");
  expect((await request.get(link)).status()).toBe(410);
  await shot(page, "account-settings");

  const section = page.getByRole("region", { name: "Close your account" });
  await expect(section).toContainText("Sign in within the 14 days and nothing is erased.");
  expect(await seriousViolations(page)).toEqual([]);

  await section.getByLabel("Password").fill("not my password");
  await section.getByRole("button", { name: "Close my account" }).click();
  await expect(section.getByText("Password is incorrect")).toBeVisible();
  await section.getByLabel("Keep my published posts on the site, under “A former member”").check();
  await section.getByLabel("Password").fill(PASSWORD);
  await section.getByRole("button", { name: "Close my account" }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(
    page.getByText(/^Your account will be closed on .+\. Changed your mind\? Sign in before then/),
  ).toBeVisible();
  await shot(page, "account-closing");
  expect(await page.evaluate(() => localStorage.getItem("userInfo"))).toBeNull();
  expect(await mailSays(user.email, "Sign in before then and nothing is erased")).toBe(true);

  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Login" }).click();
  // Back where the closing was asked for, as any sign-in that a screen sent for.
  await expect(page).toHaveURL(/\/settings\/account$/);
  expect(await mailSays(user.email, "You signed in, so your account will not be closed")).toBe(true);
});
