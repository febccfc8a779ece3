import crypto from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import { formatEther, parseEther, parseEventLogs } from "viem";
import { featuredFeeAbi } from "#shared/contracts/featured-fee.ts";
import { logIn, PASSWORD, registerUser, verifyWalletByApi } from "./fixtures/accounts.ts";
import { ADMIN, adminSession } from "./fixtures/admin.ts";
import { chooseInAccountMenu, shot, uniqueTag } from "./fixtures/screens.ts";
import { chain, expect, fundedAccount, type TestWallet, test } from "./fixtures/wallet.ts";

const FEE = parseEther("0.01");

test.describe.configure({ mode: "serial" });

/** Picks the injected test wallet in RainbowKit's connect modal. */
const chooseTestWallet = (page: Page) =>
  page
    .getByRole("dialog")
    .getByRole("button", { name: /Penchain Test Wallet/ })
    .click();

async function newCategory(request: APIRequestContext) {
  const admin = await adminSession(request);
  const title = `Ledgers ${uniqueTag()}`;
  const response = await request.post("/api/category", {
    data: { title },
    headers: { authorization: `Bearer ${admin.token}` },
  });
  expect(response.status()).toBe(201);
  return title;
}

/** Fills Create Blog up to the featured choice. */
async function draftPost(page: Page, title: string, category: string) {
  await page.goto("/create-post");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Category").selectOption(category);
  await page.getByRole("textbox", { name: "Description" }).click();
  await page.keyboard.type("Worth every wei.");
  await page.getByText("Yes", { exact: true }).click();
}

/** A writer whose wallet is verified, signed in, with a featured post drafted in Create Blog. */
async function featuredDraft(page: Page, request: APIRequestContext, wallet: TestWallet, firstName: string) {
  const category = await newCategory(request);
  const writer = await registerUser(request, { firstName });
  await verifyWalletByApi(request, writer, wallet.account);
  const title = `${firstName}'s featured post ${uniqueTag()}`;
  await logIn(page, writer.email);
  await draftPost(page, title, category);
  return { writer, title, category };
}

const feeContract = async (request: APIRequestContext) =>
  (await (await request.get("/api/config")).json()).feeRecipient as `0x${string}`;

test("a writer registers with a connected wallet, verifying it by signing", async ({ page, request, wallet }) => {
  const email = `w-${crypto.randomBytes(4).toString("hex")}@example.com`;
  await page.goto("/register");
  await page.getByLabel("First Name").fill("Wally");
  await page.getByLabel("Last Name").fill("Wallet");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await chooseTestWallet(page);
  await expect(page.getByLabel("Wallet Address")).toHaveValue(wallet.account.address);
  await page.getByRole("button", { name: "Sign to verify this wallet" }).click();
  await expect(page.getByText("Verified by your signature")).toBeVisible();
  await shot(page, "register-wallet");
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/login$/);

  const session = await (await request.post("/api/users/login", { data: { email, password: PASSWORD } })).json();
  const user = await (await request.get(`/api/users/${session.id}`)).json();
  expect(user).toMatchObject({ walletAddress: wallet.account.address, isWalletVerified: true });
});

test("a writer pays the featured fee from the wallet, verifying it on the way; the post is featured and first", async ({
  page,
  request,
  wallet,
}) => {
  const category = await newCategory(request);
  const writer = await registerUser(request, { firstName: "Fay" });
  const title = `Paid from the wallet ${uniqueTag()}`;
  const contract = await feeContract(request);
  const balanceBefore = await chain.getBalance({ address: contract });

  await logIn(page, writer.email);
  await draftPost(page, title, category);
  await expect(page.getByText(contract)).toBeVisible();
  await page.getByRole("button", { name: "Pay 0.01 ETH" }).click();
  await chooseTestWallet(page);
  // The account has no verified wallet yet: the flow asks for a signature first, then pays.
  const status = page.getByTestId("transaction-status");
  await expect(status).toHaveAttribute("data-status", "confirmed", { timeout: 20_000 });
  await expect(status).toContainText("Confirmed with 1 confirmation.");
  const hash = (await page.getByLabel("Transaction Hash").inputValue()) as `0x${string}`;
  expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
  await expect(page.getByLabel("Title")).toHaveValue(title);
  await shot(page, "create-post-paid");

  // On chain: the fee contract holds 0.01 ETH more, and the receipt carries FeaturePaid from this wallet.
  expect(await chain.getBalance({ address: contract })).toBe(balanceBefore + FEE);
  const receipt = await chain.getTransactionReceipt({ hash });
  const [paid] = parseEventLogs({ abi: featuredFeeAbi, logs: receipt.logs, eventName: "FeaturePaid" });
  expect(paid?.args).toMatchObject({ payer: wallet.account.address, amount: FEE });

  // A reload loses the form, not the payment: the page offers the unused payment again.
  await draftPost(page, title, category);
  await page.getByRole("button", { name: "Use it" }).click();
  await expect(page.getByLabel("Transaction Hash")).toHaveValue(hash);
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/posts$/);
  expect(await page.evaluate((id) => localStorage.getItem(`penchain.unusedPayment.${id}`), writer.id)).toBeNull();
  const first = page.getByRole("article").first();
  await expect(first.getByRole("link", { name: title })).toBeVisible();
  await expect(first.getByLabel("Featured")).toBeVisible();
  const { items } = await (await request.get("/api/posts?limit=1")).json();
  expect(items[0]).toMatchObject({ title, isFeatured: true, transectionHash: hash });
  const profile = await (
    await request.get(`/api/users/profile/${writer.id}`, { headers: { authorization: `Bearer ${writer.token}` } })
  ).json();
  expect(profile).toMatchObject({ accountType: "Pro Account", isWalletVerified: true });
});

test("a writer who rejects the payment keeps the whole form, and nothing is created", async ({
  page,
  request,
  wallet,
}) => {
  const { writer, title, category } = await featuredDraft(page, request, wallet, "Rex");
  wallet.rejectNext("eth_sendTransaction");
  await page.getByRole("button", { name: "Pay 0.01 ETH" }).click();
  await chooseTestWallet(page);
  await expect(page.getByRole("alert")).toHaveText("You rejected the request in your wallet. Nothing was sent.");
  await expect(page.getByLabel("Title")).toHaveValue(title);
  await expect(page.getByLabel("Category")).toHaveValue(category);
  await expect(page.getByRole("textbox", { name: "Description" })).toHaveText("Worth every wei.");
  await expect(page.getByLabel("Transaction Hash")).toHaveValue("");
  await shot(page, "create-post-rejected");
  const { items } = await (await request.get(`/api/posts?author=${writer.id}`)).json();
  expect(items).toEqual([]);
});

test("a wallet other than the account's verified one is refused before anything is sent", async ({
  page,
  request,
  wallet,
}) => {
  const verified = await fundedAccount();
  const category = await newCategory(request);
  const writer = await registerUser(request, { firstName: "Otto" });
  await verifyWalletByApi(request, writer, verified);
  await logIn(page, writer.email);
  await draftPost(page, "Paid from the wrong pocket", category);
  const nonce = await chain.getTransactionCount({ address: wallet.account.address });
  await page.getByRole("button", { name: "Pay 0.01 ETH" }).click();
  await chooseTestWallet(page);
  await expect(page.getByRole("alert")).toHaveText(
    `Your wallet is connected with ${wallet.account.address}, but the wallet verified on your account is ${verified.address}. Switch to it in your wallet, or verify this one from your profile.`,
  );
  expect(await chain.getTransactionCount({ address: wallet.account.address })).toBe(nonce);
  await expect(page.getByLabel("Title")).toHaveValue("Paid from the wrong pocket");
});

for (const kind of ["speed-up", "cancel"] as const) {
  test(`a payment the wallet ${kind === "speed-up" ? "speeds up is followed under its new hash" : "cancels fails in words"}`, async ({
    page,
    request,
    wallet,
  }) => {
    const { writer, title } = await featuredDraft(page, request, wallet, "Hal");
    wallet.holdNextTransaction();
    await page.getByRole("button", { name: "Pay 0.01 ETH" }).click();
    await chooseTestWallet(page);
    const status = page.getByTestId("transaction-status");
    await expect(status).toHaveAttribute("data-status", "pending");
    const sent = await page.getByLabel("Transaction Hash").inputValue();
    expect(sent).toMatch(/^0x[0-9a-f]{64}$/);
    // Let the app read the pending transaction before the wallet replaces it, as it would in real life.
    await page.waitForTimeout(1000);
    await wallet.replaceHeld(kind);

    if (kind === "speed-up") {
      await expect(status).toHaveAttribute("data-status", "confirmed", { timeout: 20_000 });
      const replacement = await page.getByLabel("Transaction Hash").inputValue();
      expect(replacement).not.toBe(sent);
      await page.getByRole("button", { name: "Create" }).click();
      await expect(page).toHaveURL(/\/posts$/);
      const { items } = await (await request.get(`/api/posts?author=${writer.id}`)).json();
      expect(items[0]).toMatchObject({ title, isFeatured: true, transectionHash: replacement });
    } else {
      await expect(page.getByRole("alert")).toHaveText(
        "The transaction was cancelled in your wallet, so nothing was paid.",
        {
          timeout: 20_000,
        },
      );
      await expect(page.getByLabel("Title")).toHaveValue(title);
    }
  });
}

/** Signs in with the test wallet through RainbowKit's Sign-In with Ethereum flow. */
async function walletLogIn(page: Page) {
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign in with wallet" }).click();
  await chooseTestWallet(page);
  await page.getByRole("dialog").getByRole("button", { name: "Sign message" }).click();
}

for (const change of ["switches accounts", "disconnects", "no longer grants the account at a page load"] as const) {
  test(`a user signs in with the wallet, and the session ends when the wallet ${change}`, async ({
    page,
    request,
    wallet,
  }) => {
    const user = await registerUser(request, { firstName: "Sage" });
    await verifyWalletByApi(request, user, wallet.account);
    await walletLogIn(page);
    await expect(page).toHaveURL(new RegExp(`/profile/${user.id}$`));
    const stored = JSON.parse((await page.evaluate(() => localStorage.getItem("userInfo"))) ?? "{}");
    expect(stored).toMatchObject({ id: user.id, loginMethod: "wallet", walletAddress: wallet.account.address });
    await expect(page.getByText("Verified wallet")).toBeVisible();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Blogs" }).click();
    await expect(page.getByRole("heading", { name: "Latest Blogs" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();
    if (change === "switches accounts") await wallet.switchAccount(await fundedAccount());
    else if (change === "disconnects") await wallet.disconnect();
    else {
      wallet.lock();
      await page.reload();
    }
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("button", { name: "Logout" })).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem("userInfo"))).toBeNull();
  });
}

// `wallet: _fresh` injects a funded wallet no account has verified.
test("an unknown wallet is told how to verify one, and no session starts", async ({ page, wallet: _fresh }) => {
  await walletLogIn(page);
  await expect(page.getByRole("alert").filter({ hasText: "No account has verified this wallet" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("userInfo"))).toBeNull();
});

test("an admin verifies a wallet on the profile, tips a user, and sees payments and rewards", async ({
  page,
  request,
  wallet,
}) => {
  const admin = await adminSession(request);
  const recipient = await registerUser(request, { firstName: "Tipsy" });
  const recipientWallet = await fundedAccount();
  await verifyWalletByApi(request, recipient, recipientWallet);
  const before = await chain.getBalance({ address: recipientWallet.address });

  await logIn(page, "admin@penchain.example", "admin password 1");
  await page.goto(`/profile/${admin.id}`);
  await page.getByRole("button", { name: /^(Verify|Change) wallet$/ }).click();
  await chooseTestWallet(page);
  // A run after an earlier one finds the admin's wallet verified already: replacing it asks for the password.
  const verified = page.getByText("Wallet verified.");
  await expect(verified.or(page.getByText("Current Password is required"))).toBeVisible();
  if (!(await verified.isVisible())) {
    await page.getByLabel("Current Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Change wallet" }).click();
  }
  await expect(verified).toBeVisible();
  await expect(page.getByText(wallet.account.address)).toBeVisible();

  await page.goto("/users");
  const row = page.getByRole("row").filter({ hasText: recipient.email });
  await row.getByRole("button", { name: "Tip ETH" }).click();
  const dialog = page.getByRole("dialog", { name: "Tip Tipsy Tester" });
  await dialog.getByLabel("Amount (ETH)").fill("0.02");
  await dialog.getByRole("button", { name: "Send tip" }).click();
  await expect(dialog.getByText("Tip recorded as your reward.")).toBeVisible({ timeout: 20_000 });
  await shot(page, "admin-tip");
  expect(await chain.getBalance({ address: recipientWallet.address })).toBe(before + parseEther("0.02"));
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(row.getByRole("link", { name: /^Rewards \d+$/ })).toBeVisible();

  await chooseInAccountMenu(page, "Payments", /\/payments$/);
  await expect(page.getByRole("heading", { level: 1, name: "Payments" })).toBeVisible();
  await page.getByRole("tab", { name: "Tips" }).click();
  const tipRow = page.getByRole("tabpanel").getByRole("row").nth(1);
  await expect(tipRow).toContainText(`${formatEther(parseEther("0.02"))} ETH`);
  const to = recipientWallet.address;
  await expect(tipRow).toContainText(`${to.slice(0, 6)}…${to.slice(-4)}`);
  await page.getByRole("tab", { name: "Featured posts" }).click();
  await expect(page.getByRole("tabpanel").getByText("0.01 ETH").first()).toBeVisible();
  await shot(page, "admin-payments");

  await page.goto("/users");
  await page
    .getByRole("row")
    .filter({ hasText: recipient.email })
    .getByRole("link", { name: /^Rewards/ })
    .click();
  await expect(page.getByRole("heading", { level: 2, name: "Tipsy Tester" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Rewards" })).toContainText("Ada Admin");
  await expect(page.getByRole("region", { name: "Rewards" })).toContainText("tipped 0.02 ETH");
});

test("changing a verified wallet asks for the current password before anything is signed", async ({
  page,
  request,
  wallet,
}) => {
  const writer = await registerUser(request, { firstName: "Wally" });
  await verifyWalletByApi(request, writer, await fundedAccount());
  await logIn(page, writer.email);
  await page.goto(`/profile/${writer.id}`);
  await page.getByRole("button", { name: "Change wallet" }).click();
  await chooseTestWallet(page);
  await expect(page.getByText("Current Password is required")).toBeVisible();
  await expect(page.getByText("Wallet verified.")).toHaveCount(0);
  await page.getByLabel("Current Password").fill("not my password");
  await page.getByRole("button", { name: "Change wallet" }).click();
  await expect(page.getByText("Current Password is incorrect")).toBeVisible();
  await page.getByLabel("Current Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Change wallet" }).click();
  await expect(page.getByText("Wallet verified.")).toBeVisible();
  await expect(page.getByText(wallet.account.address)).toBeVisible();
  await shot(page, "wallet-change-password");
});

/**
 * Every script the page loaded while `visit` ran, with its text. The text is fetched again by address (built assets
 * do not change): the browser may have let a response's body go once the page moved on.
 */
async function scriptsLoadedDuring(page: Page, visit: () => Promise<void>) {
  const urls: string[] = [];
  const onResponse = (response: import("@playwright/test").Response) => {
    if (response.request().resourceType() === "script") urls.push(response.url());
  };
  page.on("response", onResponse);
  await visit();
  page.off("response", onResponse);
  return Promise.all(
    urls.map(async (url) => {
      const response = await page.request.get(url);
      expect(response.status(), url).toBe(200);
      return { url, body: await response.text() };
    }),
  );
}
// wagmi's EIP-6963 discovery and RainbowKit's theme root: in the wallet chunk and nowhere else.
const isWalletCode = ({ body }: { body: string }) =>
  body.includes("eip6963:requestProvider") || body.includes("data-rk");

test("readers download no wallet code; Create Blog loads it only once Featured is Yes", async ({ page, request }) => {
  const category = await newCategory(request);
  const writer = await registerUser(request, { firstName: "Reed" });
  const response = await request.post("/api/posts", {
    multipart: { title: "Plain reading", description: "<p>No wallet needed.</p>", category, isFeatured: "false" },
    headers: { authorization: `Bearer ${writer.token}` },
  });
  expect(response.status(), await response.text()).toBe(201);
  const post = await response.json();

  const reading = await scriptsLoadedDuring(page, async () => {
    await page.goto("/posts");
    await expect(page.getByRole("heading", { name: "Latest Blogs" })).toBeVisible();
    // A reader's first press starts the app on this server-rendered page; from then on it navigates in the page.
    await page.getByRole("button", { name: "View All Blogs" }).click();
    await page.getByRole("link", { name: "Plain reading" }).first().click();
    await expect(page).toHaveURL(new RegExp(`/posts/${post.id}$`));
    await expect(page.getByText("No wallet needed.")).toBeVisible();
  });
  expect(reading.length).toBeGreaterThan(3);
  expect(reading.filter(isWalletCode).map((script) => script.url)).toEqual([]);

  // The same check sees wallet code where it belongs, so it can fail.
  await logIn(page, writer.email);
  const writing = await scriptsLoadedDuring(page, async () => {
    await page.getByRole("link", { name: "New Blog" }).click();
    await expect(page.getByRole("heading", { name: "Create Post" })).toBeVisible();
  });
  expect(writing.filter(isWalletCode)).toEqual([]);
  const featured = await scriptsLoadedDuring(page, async () => {
    await page.getByText("Yes", { exact: true }).click();
    await expect(page.getByRole("button", { name: "Pay 0.01 ETH" })).toBeVisible();
  });
  expect(featured.filter(isWalletCode).length).toBeGreaterThan(0);
});

test.describe("on a 360 px phone", () => {
  test.use({ viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });

  test("a writer's bar, Create Blog with the fee panel, and profile fit the screen; Logout is in the menu", async ({
    page,
    request,
  }) => {
    const writer = await registerUser(request, { firstName: "Pip" });
    await logIn(page, writer.email);
    const fits = async () =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await expect(page.getByRole("heading", { level: 1, name: "Pip Tester" })).toBeVisible();
    await fits();
    await page.getByRole("link", { name: "New Blog" }).click();
    await page.getByText("Yes", { exact: true }).click();
    await expect(page.getByRole("button", { name: "Pay 0.01 ETH" })).toBeVisible();
    await fits();
    await shot(page, "phone-create-post-featured");
    await page.getByRole("button", { name: "Open navigation" }).click();
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/$/);
    // The session ends once the navigation home has landed (lib/use-logout.ts), a moment after the address changes.
    await expect.poll(() => page.evaluate(() => localStorage.getItem("userInfo"))).toBeNull();
  });
});
