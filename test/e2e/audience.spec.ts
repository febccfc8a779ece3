import type { APIRequestContext } from "@playwright/test";
import { parseEther } from "viem";
import { logIn, registerUser, type TestUser, verifyWalletByApi } from "./fixtures/accounts.ts";
import { adminSession } from "./fixtures/admin.ts";
import { linkFromMail } from "./fixtures/outbox.ts";
import { auth, shot, uniqueTag } from "./fixtures/screens.ts";
import { chain, expect, fundedAccount, test } from "./fixtures/wallet.ts";

async function publish(request: APIRequestContext, author: TestUser, title: string) {
  const admin = await adminSession(request);
  const category = `Audience ${uniqueTag()}`;
  await request.post("/api/category", { data: { title: category }, headers: auth(admin) });
  const response = await request.post("/api/posts", {
    data: { title, description: "<p>For my readers.</p>", category, isFeatured: "false" },
    headers: auth(author),
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: string };
}

test("the bell counts live what another browser does, and the notifications screen lists it", async ({
  page,
  browser,
  request,
}) => {
  const author = await registerUser(request, { firstName: "Belle" });
  const title = `Ring the bell ${uniqueTag()}`;
  await publish(request, author, title);
  await logIn(page, author.email);
  const bell = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName("Notifications");

  // Another reader, in a browser of their own, likes the post in the list.
  const reader = await registerUser(request, { firstName: "Liker" });
  const other = await browser.newContext();
  const readerPage = await other.newPage();
  await logIn(readerPage, reader.email);
  await readerPage.goto("/posts");
  const card = readerPage.getByRole("article").filter({ hasText: title });
  await card.getByRole("button", { name: /likes, like this post/ }).click();
  await expect(card.getByRole("button", { name: "1 likes, like this post" })).toHaveAttribute("aria-pressed", "true");
  // No reload: the count arrives on its own.
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread", { timeout: 10_000 });
  await other.close();

  await bell.click();
  await expect(page).toHaveURL(/\/notifications$/);
  const list = page.getByRole("list", { name: "Notifications" });
  await expect(list.getByRole("link", { name: /Liker Tester liked your post “Ring the bell/ })).toBeVisible();
  await shot(page, "notifications");
  await page.getByRole("button", { name: "Mark all as read" }).click();
  await expect(bell).toHaveAccessibleName("Notifications");
});

test("a reader tips an author from a post page with their wallet, and the post shows it", async ({
  page,
  request,
  wallet,
}) => {
  const author = await registerUser(request, { firstName: "Tipped" });
  const authorWallet = await fundedAccount();
  await verifyWalletByApi(request, author, authorWallet);
  const post = await publish(request, author, `Worth a tip ${uniqueTag()}`);
  const reader = await registerUser(request, { firstName: "Generous" });
  await verifyWalletByApi(request, reader, wallet.account);
  const before = await chain.getBalance({ address: authorWallet.address });

  await logIn(page, reader.email);
  await page.goto(`/posts/${post.id}`);
  const tips = page.getByLabel("Tips");
  await expect(tips).toContainText("No tips yet");
  await tips.getByRole("button", { name: "Tip the author" }).click();
  // The wallet connects first (RainbowKit's modal), then the tip's own dialog opens.
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /Penchain Test Wallet/ })
    .click();
  const dialog = page.getByRole("dialog", { name: "Tip Tipped Tester" });
  await dialog.getByRole("button", { name: "0.005 ETH" }).click();
  await dialog.getByRole("button", { name: "Send tip" }).click();
  await expect(dialog.getByText("Thank you: your tip is recorded.")).toBeVisible({ timeout: 20_000 });
  expect(await chain.getBalance({ address: authorWallet.address })).toBe(before + parseEther("0.005"));
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(tips).toContainText("1 tip · 0.005 ETH");
  await shot(page, "post-tipped");

  const told = await (await request.get("/api/notifications", { headers: auth(author) })).json();
  expect(told.items[0]).toMatchObject({ kind: "tip", actor: { id: reader.id }, post: { id: post.id } });
});

test("a follower's mail about a new post unsubscribes in one click from its link, and can undo it", async ({
  page,
  request,
}) => {
  const author = await registerUser(request, { firstName: "Prolific" });
  const follower = await registerUser(request, { firstName: "Follower" });
  // Only verified addresses get mail: the follower verifies theirs through the mailed link.
  await request.post("/api/users/generate-verify-email-token", { headers: auth(follower) });
  const verify = await linkFromMail(follower.email, "verify-account");
  await request.put(`/api/users/verify-account`, {
    data: { token: verify.split("/").at(-1) },
    headers: auth(follower),
  });
  await request.put("/api/users/follow", { data: { followId: author.id }, headers: auth(follower) });
  await publish(request, author, `News for followers ${uniqueTag()}`);

  // The footer's link, from the mail as it was written, opened without logging in.
  const link = await linkFromMail(follower.email, `unsubscribe/${follower.id}/new_post`);
  await page.goto(link);
  await expect(
    page.getByText("Done: you will no longer receive e-mail for “New posts by authors you follow”", { exact: false }),
  ).toBeVisible();
  await shot(page, "unsubscribed");
  const settings = async () =>
    (await (await request.get("/api/notifications/settings", { headers: auth(follower) })).json()).settings.find(
      (setting: { topic: string }) => setting.topic === "new_post",
    ).delivery;
  expect(await settings()).toBe("app");
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByText("is back to e-mail at once", { exact: false })).toBeVisible();
  expect(await settings()).toBe("email");
});
