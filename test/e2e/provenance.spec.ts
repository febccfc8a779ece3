import type { APIRequestContext, Page } from "@playwright/test";
import { logIn, registerUser, verifyWalletByApi } from "./fixtures/accounts.ts";
import { adminSession } from "./fixtures/admin.ts";
import { shot, uniqueTag } from "./fixtures/screens.ts";
import { expect, test } from "./fixtures/wallet.ts";

async function newCategory(request: APIRequestContext) {
  const admin = await adminSession(request);
  const title = `Provenance ${uniqueTag()}`;
  const response = await request.post("/api/category", {
    data: { title },
    headers: { authorization: `Bearer ${admin.token}` },
  });
  expect(response.status()).toBe(201);
  return title;
}

async function publish(page: Page, title: string, category: string) {
  await page.goto("/create-post");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Category").selectOption(category);
  await page.getByRole("textbox", { name: "Description" }).click();
  await page.keyboard.type("Every word of it mine.");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/posts$/);
}

const shortOf = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

test("an author publishes and signs the revision in their wallet; the badge says so; a visitor checks it without script", async ({
  page,
  request,
  wallet,
  browser,
}) => {
  const category = await newCategory(request);
  const writer = await registerUser(request, { firstName: "Penny" });
  await verifyWalletByApi(request, writer, wallet.account);
  const title = `Signed in ink ${uniqueTag()}`;
  await logIn(page, writer.email);
  await publish(page, title, category);

  // Publishing did not wait: the post is listed, and the ask to sign it sits above the list.
  await expect(page.getByRole("link", { name: title }).first()).toBeVisible();
  const prompt = page.getByRole("region", { name: "Sign this revision" });
  await expect(prompt).toContainText("Revision 1 is not signed yet.");
  await shot(page, "provenance-prompt-desktop");
  await page.setViewportSize({ width: 360, height: 780 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await shot(page, "provenance-prompt-phone");
  await page.setViewportSize({ width: 1280, height: 720 });

  await prompt.getByRole("button", { name: "Sign this revision" }).click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /Penchain Test Wallet/ })
    .click();
  await expect(page.getByRole("status").filter({ hasText: "Signed: revision 1" })).toBeVisible({ timeout: 20_000 });

  await page.getByRole("link", { name: title }).first().click();
  const badge = page.getByTestId("provenance-badge");
  await expect(badge).toHaveText(`Signed by ${shortOf(wallet.account.address)}, revision 1`);
  const postId = /\/posts\/([^/]+)$/.exec(page.url())?.[1] as string;
  await expect(badge).toHaveAttribute("href", `/posts/${postId}/provenance`);
  // Signed: the post's own page no longer asks.
  await expect(page.getByRole("region", { name: "Sign this revision" })).toHaveCount(0);
  await shot(page, "provenance-badge-desktop");
  await page.setViewportSize({ width: 360, height: 780 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await shot(page, "provenance-badge-phone");

  // A visitor without script: the server-rendered post carries the badge, and its link the whole story.
  const plain = await browser.newContext({ javaScriptEnabled: false });
  const visitor = await plain.newPage();
  await visitor.goto(`/posts/${postId}`);
  const served = visitor.getByTestId("provenance-badge");
  await expect(served).toHaveText(`Signed by ${shortOf(wallet.account.address)}, revision 1`);
  await served.click();
  await expect(visitor).toHaveURL(new RegExp(`/posts/${postId}/provenance$`));
  await expect(visitor.getByText(wallet.account.address).first()).toBeVisible();
  // Its long addresses and keys wrap on a phone rather than push the page sideways.
  await visitor.setViewportSize({ width: 360, height: 780 });
  expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expect(visitor.getByRole("heading", { level: 1 })).toBeVisible();
  await shot(visitor, "provenance-page-no-script");
  await plain.close();
});

test("an author may skip signing, and sign later from the post's page", async ({ page, request, wallet }) => {
  const category = await newCategory(request);
  const writer = await registerUser(request, { firstName: "Skip" });
  await verifyWalletByApi(request, writer, wallet.account);
  const title = `Signed later ${uniqueTag()}`;
  await logIn(page, writer.email);
  await publish(page, title, category);
  const prompt = page.getByRole("region", { name: "Sign this revision" });
  await prompt.getByRole("button", { name: "Not now" }).click();
  await expect(prompt).toHaveCount(0);

  await page.getByRole("link", { name: title }).first().click();
  await expect(page.getByTestId("provenance-badge")).toHaveText("Not signed by its author");
  const later = page.getByRole("region", { name: "Sign this revision" });
  // The wallet says no first: nothing is kept, and the button is there to try again.
  wallet.rejectNext("eth_signTypedData");
  await later.getByRole("button", { name: "Sign this revision" }).click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /Penchain Test Wallet/ })
    .click();
  await expect(later.getByRole("alert")).toHaveText("You rejected the request in your wallet. Nothing was sent.");
  await later.getByRole("button", { name: "Sign this revision" }).click();
  await expect(page.getByTestId("provenance-badge")).toHaveText(
    `Signed by ${shortOf(wallet.account.address)}, revision 1`,
    { timeout: 20_000 },
  );
});

test("an author without a verified wallet is not asked", async ({ page, request }) => {
  const category = await newCategory(request);
  const writer = await registerUser(request, { firstName: "Noel" });
  await logIn(page, writer.email);
  const title = `Unsigned ${uniqueTag()}`;
  await publish(page, title, category);
  await page.getByRole("link", { name: title }).first().click();
  await expect(page.getByTestId("provenance-badge")).toHaveText("Not signed by its author");
  await expect(page.getByRole("region", { name: "Sign this revision" })).toHaveCount(0);
});
