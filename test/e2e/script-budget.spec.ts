import { type Browser, expect, type Page, test } from "@playwright/test";
import { PASSWORD, registerUser } from "./fixtures/accounts.ts";
import { adminSession } from "./fixtures/admin.ts";
import { auth, uniqueTag } from "./fixtures/screens.ts";

// The script a screen fetches, as the browser counts it on the wire (each response's body and headers): the
// signed-in app's budget is 200 KiB (docs/performance.md, PRODUCT.md's client bytes), reader pages' 50 KiB until the
// app starts, and readers never fetch wallet code.

const KIB = 1024;
const PHONE = { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true };

/** Every script `page` fetches from now on: its address, its bytes on the wire, and whether it is wallet code. */
function watchScripts(page: Page) {
  const scripts: Promise<{ url: string; bytes: number; wallet: boolean }>[] = [];
  page.on("requestfinished", (request) => {
    if (request.resourceType() !== "script") return;
    scripts.push(
      (async () => {
        const sizes = await request.sizes();
        const body = (await (await request.response())?.body())?.toString() ?? "";
        return {
          url: request.url(),
          bytes: sizes.responseBodySize + sizes.responseHeadersSize,
          // wagmi's EIP-6963 discovery and RainbowKit's theme root (as wallet.spec.ts tells them).
          wallet: body.includes("eip6963:requestProvider") || body.includes("data-rk"),
        };
      })(),
    );
  });
  /** What was fetched once the page has fetched nothing new for a second. */
  return async () => {
    for (let seen = -1; seen !== scripts.length; ) {
      seen = scripts.length;
      await page.waitForTimeout(1000);
    }
    const all = await Promise.all(scripts);
    return { all, kib: all.reduce((sum, script) => sum + script.bytes, 0) / KIB };
  };
}

async function postOf(request: import("@playwright/test").APIRequestContext) {
  const admin = await adminSession(request);
  const category = `Budget ${uniqueTag()}`;
  expect((await request.post("/api/category", { data: { title: category }, headers: auth(admin) })).status()).toBe(201);
  const response = await request.post("/api/posts", {
    data: { title: `Weighed ${uniqueTag()}`, description: "<p>Counted.</p>", category, isFeatured: "false" },
    headers: auth(admin),
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: string };
}

async function signedIn(browser: Browser, session: string, phone: boolean) {
  const context = await browser.newContext(phone ? PHONE : {});
  await context.addInitScript((value) => localStorage.setItem("userInfo", value), session);
  return context;
}

for (const phone of [false, true]) {
  const where = phone ? "phone" : "desktop";

  test(`Create Blog and a post, signed in, fetch at most 200 KiB of script (${where})`, async ({
    browser,
    request,
  }) => {
    const post = await postOf(request);
    const writer = await registerUser(request);
    const session = await (
      await request.post("/api/users/login", { data: { email: writer.email, password: PASSWORD } })
    ).text();
    for (const [path, ready] of [
      ["/create-post", "Drag an image here, or click to choose one"],
      [`/posts/${post.id}`, "Counted."],
    ] as const) {
      const context = await signedIn(browser, session, phone);
      const page = await context.newPage();
      const scripts = watchScripts(page);
      await page.goto(path);
      await expect(page.getByText(ready)).toBeVisible({ timeout: 15_000 });
      // The app is running: the bar knows who is signed in.
      await expect(page.getByRole("link", { name: "Notifications" })).toBeVisible({ timeout: 15_000 });
      const { all, kib } = await scripts();
      test.info().annotations.push({ type: `${path.split("/")[1]} script KiB`, description: kib.toFixed(1) });
      expect(all.length).toBeGreaterThan(5);
      expect(kib, all.map((script) => `${script.url} ${script.bytes}`).join("\n")).toBeLessThanOrEqual(200);
      expect(all.filter((script) => script.wallet).map((script) => script.url)).toEqual([]);
      await context.close();
    }
  });

  test(`a reader's post page fetches at most 50 KiB of script until the app starts, and no wallet code after (${where})`, async ({
    browser,
    request,
  }) => {
    const post = await postOf(request);
    const context = await browser.newContext(phone ? PHONE : {});
    const page = await context.newPage();
    const scripts = watchScripts(page);
    await page.goto(`/posts/${post.id}`);
    await expect(page.getByText("Counted.")).toBeVisible();
    const before = await scripts();
    test.info().annotations.push({ type: "reader script KiB", description: before.kib.toFixed(1) });
    expect(before.all.length).toBeGreaterThan(0);
    expect(before.kib).toBeLessThanOrEqual(50);
    // A reader's first key press starts the app: still no wallet code, and within the app's budget.
    await page.keyboard.press("Shift");
    const after = await scripts();
    expect(after.all.length).toBeGreaterThan(before.all.length);
    expect(after.all.filter((script) => script.wallet).map((script) => script.url)).toEqual([]);
    expect(after.kib).toBeLessThanOrEqual(200);
    await context.close();
  });
}
