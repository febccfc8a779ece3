import crypto from "node:crypto";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { linkFromMail, mailSays } from "./fixtures/outbox.ts";

const SCREENS = path.resolve(import.meta.dirname, "../../test-results/screens");

async function register(request: import("@playwright/test").APIRequestContext) {
  const email = `mail-${crypto.randomBytes(4).toString("hex")}@example.com`;
  const password = "first password 1";
  await request.post("/api/users/register", {
    data: {
      firstName: "Mia",
      lastName: "Mail",
      email,
      password,
      walletAddress: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
    },
  });
  return { email, password };
}

test("a user resets a forgotten password through the e-mailed link", async ({ page, request }) => {
  const { email } = await register(request);
  await page.goto("/login");
  await page.getByRole("link", { name: "Forget Password ?" }).click();
  await expect(page.getByRole("heading", { name: "Password Reset Form" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(page.getByText("Email is successfully sent to your email. Verify it within 10 minutes.")).toBeVisible();

  await page.goto(await linkFromMail(email, "reset-password"));
  await page.getByLabel("New Password").fill("password1");
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(page.getByText(/one of the most common ones/)).toBeVisible();
  await page.getByLabel("New Password").fill("second password 2");
  await page.getByLabel("Also unlink my verified wallet").check();
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(
    page.getByText("Password Reset Successfully. You will be redirected to login with 5 seconds"),
  ).toBeVisible();
  expect(await mailSays(email, "was reset just now")).toBe(true);
  await page.screenshot({ path: path.join(SCREENS, "reset-password.png") });
  await expect(page).toHaveURL(/\/login$/, { timeout: 8000 });

  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("second password 2");
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/profile\//);
});

test("a user verifies the account through the e-mailed link", async ({ page, request }) => {
  const { email, password } = await register(request);
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByText("Your account is not verified.")).toBeVisible();
  await page.getByRole("button", { name: "Verify your account" }).click();
  await expect(page.getByText("Email is sent, check your inbox to verify your account.")).toBeVisible();

  await page.goto(await linkFromMail(email, "verify-account"));
  await expect(page.getByRole("heading", { name: "Account Verified" })).toBeVisible();
  await expect(page.getByText("Your account is now verified. Logout and login back to see the changes")).toBeVisible();
  await page.screenshot({ path: path.join(SCREENS, "verify-account.png") });
  await page.getByRole("main").getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Register" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("userInfo"))).toBeNull();

  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/profile\//);
  await expect(page.getByText("Account Verified")).toBeVisible();
  await expect(page.getByText("Your account is not verified.")).toBeHidden();
});
