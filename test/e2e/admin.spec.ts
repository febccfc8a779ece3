import crypto from "node:crypto";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { ADMIN } from "./fixtures/admin.ts";
import { linkFromMail } from "./fixtures/outbox.ts";
import { chooseInAccountMenu, uniqueTag } from "./fixtures/screens.ts";

const SCREENS = path.resolve(import.meta.dirname, "../../test-results/screens");

async function logInAsAdmin(page: Page) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/profile\//);
}

test("an admin adds, renames and deletes a category", async ({ page }) => {
  const title = `Topic ${uniqueTag()}`;
  await logInAsAdmin(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Add Category" }).click();
  await expect(page.getByRole("heading", { name: "Add New Category" })).toBeVisible();
  await page.getByRole("button", { name: "Add new Category" }).click();
  await expect(page.getByText("Title is required")).toBeVisible();
  await page.getByPlaceholder("New Category").fill(title);
  await page.getByRole("button", { name: "Add new Category" }).click();

  await expect(page).toHaveURL(/\/category-list$/);
  const row = page.getByRole("row").filter({ hasText: title });
  await expect(row).toContainText("Ada Admin");
  await expect(row).toContainText(ADMIN.email);
  await expect(row).toContainText(
    new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric" }).format(new Date()),
  );
  await page.screenshot({ path: path.join(SCREENS, "category-list.png"), fullPage: true });

  await row.getByRole("link", { name: `Edit ${title}` }).click();
  await expect(page.getByRole("heading", { name: "Update Category" })).toBeVisible();
  await expect(page.getByLabel("Title")).toHaveValue(title);
  await page.getByLabel("Title").fill(`${title} renamed`);
  await page.getByRole("button", { name: "Update Category" }).click();
  await expect(page.getByRole("row").filter({ hasText: `${title} renamed` })).toBeVisible();

  await page.getByRole("link", { name: `Edit ${title} renamed` }).click();
  await page.getByRole("button", { name: "Delete Category" }).click();
  await expect(page).toHaveURL(/\/category-list$/);
  await expect(page.getByRole("row").filter({ hasText: title })).toHaveCount(0);
});

test("an admin blocks and unblocks a user, rewards one and messages one", async ({ page, request }) => {
  const email = `member-${crypto.randomBytes(4).toString("hex")}@example.com`;
  await request.post("/api/users/register", {
    data: {
      firstName: "Max",
      lastName: "Member",
      email,
      password: "member password",
      walletAddress: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
    },
  });
  await logInAsAdmin(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Authors" }).click();
  const row = page.getByRole("row").filter({ hasText: email });
  await expect(row).toContainText("Starter Account");

  await row.getByRole("button", { name: "Block" }).click();
  await expect(row.getByRole("button", { name: "Unblock" })).toBeVisible();
  expect((await request.post("/api/users/login", { data: { email, password: "member password" } })).status()).toBe(403);
  await row.getByRole("button", { name: "Unblock" }).click();
  await expect(row.getByRole("button", { name: "Block" })).toBeVisible();
  expect((await request.post("/api/users/login", { data: { email, password: "member password" } })).status()).toBe(200);

  await row.getByRole("button", { name: "Reward" }).click();
  await expect(row).toContainText("Rewards 1");
  await page.screenshot({ path: path.join(SCREENS, "users.png"), fullPage: true });

  await row.getByRole("link", { name: "Message" }).click();
  await expect(page.getByLabel("Recipient Email")).toHaveValue(email);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText("Subject is required")).toBeVisible();
  await page.getByLabel("Subject").fill("Welcome aboard");
  await page
    .getByRole("textbox", { name: "Message" })
    .fill("Thanks for writing on Penchain. Visit http://localhost/reset-password/notalink");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page).toHaveURL(/\/profile\//);
  await expect(page.getByRole("heading", { level: 1, name: "Max Member" })).toBeVisible();
  expect(await linkFromMail(email, "reset-password")).toBe("/reset-password/notalink");
});

test("an admin renames the site in Settings and sees the chain and mail status", async ({ page }) => {
  await logInAsAdmin(page);
  await chooseInAccountMenu(page, "Settings", /\/Settings$/);
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await expect(page.getByText("Hardhat (chain id 31337)")).toBeVisible();
  await expect(page.getByText(/Files in the data folder/)).toBeVisible();

  await page.getByLabel("Site name").fill("Chain Notes");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Chain Notes" })).toBeVisible();
  await expect(page).toHaveTitle("Chain Notes");
  await page.screenshot({ path: path.join(SCREENS, "settings.png"), fullPage: true });

  // Other tests expect the default name.
  await page.getByLabel("Site name").fill("Penchain");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Penchain" })).toBeVisible();
});
