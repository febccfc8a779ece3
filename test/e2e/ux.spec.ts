import { type APIRequestContext, type BrowserContext, expect as baseExpect, type Page, test } from "@playwright/test";
import { PASSWORD, registerUser, type TestUser } from "./fixtures/accounts.ts";
import { ADMIN, adminSession } from "./fixtures/admin.ts";
import { auth, shot, uniqueTag } from "./fixtures/screens.ts";

// A server page's app starts at the first press; on a busy machine that takes longer than the default 5 s.
const expect = baseExpect.configure({ timeout: 20_000 });

/** Signs the context's pages in as `session` (the login answer, as the app stores it). */
async function signIn(context: BrowserContext, session: object) {
  await context.addInitScript((value) => localStorage.setItem("userInfo", value), JSON.stringify(session));
}

/** How far the page and each visible control of the bar reach past the window, in pixels (0 when all fit). */
function overflowOf(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const page = (document.scrollingElement?.scrollWidth ?? 0) - width;
    const controls = [...document.querySelectorAll<HTMLElement>("header a, header button, header input")]
      .filter((control) => control.getClientRects().length > 0 && getComputedStyle(control).visibility !== "hidden")
      .map((control) => {
        const box = control.getBoundingClientRect();
        return { name: control.textContent?.trim() || control.getAttribute("aria-label") || control.tagName, box };
      })
      .filter(({ box }) => box.left < 0 || box.right > width + 0.5)
      .map(({ name, box }) => `${name} ${Math.round(box.left)}..${Math.round(box.right)}`);
    // The site's name is cut short only when it is too long for any bar, never the default one.
    const brand = document.querySelector<HTMLElement>('header nav[aria-label="Main"] > a');
    if (brand && brand.scrollWidth > brand.clientWidth) controls.push(`site name cut to ${brand.clientWidth}px`);
    return { page, controls };
  });
}

const WIDTHS = [...Array.from({ length: 67 }, (_, index) => 320 + index * 16), 360, 768, 1024, 1100, 1366];

test.describe("the top bar", () => {
  for (const role of ["visitor", "author", "admin"] as const) {
    test(`fits every width from 320 to 1366 px for the ${role}`, async ({ page, context, request }) => {
      if (role === "admin")
        await signIn(context, await (await request.post("/api/users/login", { data: ADMIN })).json());
      if (role === "author") {
        const user = await registerUser(request);
        await signIn(
          context,
          await (
            await request.post("/api/users/login", { data: { email: user.email, password: "e2e test password" } })
          ).json(),
        );
      }
      await page.setViewportSize({ width: 1366, height: 800 });
      await page.goto("/posts");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      if (role !== "visitor") await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();
      const failures: string[] = [];
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        const { page: over, controls } = await overflowOf(page);
        if (over > 0 || controls.length) failures.push(`${width}: page +${over}; ${controls.join(", ")}`);
        if ([360, 768, 1024, 1100].includes(width)) await shot(page, `bar-${role}-${width}`);
      }
      expect(failures).toEqual([]);
    });
  }
});

/** A published post of the admin's (Ada Admin), in a category of its own. */
async function adminPost(request: APIRequestContext) {
  const tag = uniqueTag();
  const admin = await adminSession(request);
  await request.post("/api/category", { data: { title: `Ux ${tag}` }, headers: auth(admin) });
  const response = await request.post("/api/posts", {
    data: { title: `Usable ${tag}`, description: "<p>Words</p>", category: `Ux ${tag}`, isFeatured: "false" },
    headers: auth(admin),
  });
  expect(response.status(), await response.text()).toBe(201);
  return { admin, post: (await response.json()) as { id: string; title: string } };
}

async function logInHere(page: Page, user: TestUser) {
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Login", exact: true }).click();
}

for (const [size, viewport] of [
  ["phone", { width: 360, height: 780 }],
  ["desktop", { width: 1280, height: 800 }],
] as const) {
  test(`a post's page: a visitor's like goes by the login and back; a reader likes, dislikes and follows (${size})`, async ({
    page,
    request,
  }) => {
    const { post } = await adminPost(request);
    const reader = await registerUser(request);
    await page.setViewportSize(viewport);
    await page.goto(`/posts/${post.id}`);
    // The server's page, pressed before its app has started.
    await expect(page.getByRole("button", { name: "0 dislikes, dislike this post" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Follow Ada Admin" })).toBeVisible();
    await page.getByRole("button", { name: "0 likes, like this post" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText("Log in to like this post.")).toBeVisible();
    await logInHere(page, reader);
    await expect(page).toHaveURL(new RegExp(`/posts/${post.id}$`));

    await page.getByRole("button", { name: "0 likes, like this post" }).click();
    await expect(page.getByRole("button", { name: "1 likes, like this post" })).toHaveAttribute("aria-pressed", "true");
    await page.getByRole("button", { name: "0 dislikes, dislike this post" }).click();
    await expect(page.getByRole("button", { name: "1 dislikes, dislike this post" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await page.getByRole("button", { name: /^Follow Ada Admin \(\d+\)$/ }).click();
    await expect(page.getByRole("button", { name: "Unfollow Ada Admin" })).toBeVisible();
    await shot(page, `post-actions-${size}`);
    await page.getByRole("button", { name: "Unfollow Ada Admin" }).click();
    await expect(page.getByRole("button", { name: /^Follow Ada Admin \(\d+\)$/ })).toBeVisible();
  });
}

test("a visitor's Follow on a post's page goes by the login and back", async ({ page, request }) => {
  const { post } = await adminPost(request);
  const reader = await registerUser(request);
  await page.goto(`/posts/${post.id}`);
  await page.getByRole("button", { name: "Follow Ada Admin" }).click();
  await expect(page.getByText("Log in to follow Ada Admin.")).toBeVisible();
  await logInHere(page, reader);
  await expect(page).toHaveURL(new RegExp(`/posts/${post.id}$`));
  await page.getByRole("button", { name: /^Follow Ada Admin/ }).click();
  await expect(page.getByRole("button", { name: "Unfollow Ada Admin" })).toBeVisible();
});

test("a cached post page with a recent comment hydrates without a mismatch and keeps what was typed", async ({
  page,
  request,
}) => {
  const { admin, post } = await adminPost(request);
  const comment = await request.post("/api/comments", {
    data: { postId: post.id, description: "Fresh words" },
    headers: auth(admin),
  });
  expect(comment.status()).toBe(201);
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  // The server's page was rendered (and cached) minutes before this browser's clock: "just now" against "5 minutes".
  await request.get(`/posts/${post.id}`);
  await page.clock.setFixedTime(Date.now() + 5 * 60_000);
  await page.goto(`/posts/${post.id}`, { waitUntil: "commit" });
  const field = page.getByLabel("Your e-mail address");
  await field.click();
  await page.keyboard.type("early.reader@example.com");
  // The app has started (the time's tooltip is the browser's) and the relative time ticks on the browser's clock.
  await expect(page.locator("time[title]").first()).toBeAttached();
  await expect(page.getByText("5 minutes ago")).toBeVisible();
  await expect(field).toHaveValue("early.reader@example.com");
  expect(problems.filter((text) => /hydrat|#418|#423|#425/i.test(text))).toEqual([]);
});

test("liking on the list or following on a profile keeps the keyboard's focus on the button", async ({
  page,
  context,
  request,
}) => {
  const { admin, post } = await adminPost(request);
  const reader = await registerUser(request);
  await signIn(
    context,
    await (await request.post("/api/users/login", { data: { email: reader.email, password: PASSWORD } })).json(),
  );
  await page.goto("/posts");
  const card = page.getByRole("article").filter({ hasText: post.title });
  const like = card.getByRole("button", { name: /likes, like this post/ });
  await expect(like).toHaveAccessibleName("0 likes, like this post");
  await like.focus();
  await page.keyboard.press("Enter");
  await expect(card.getByRole("button", { name: "1 likes, like this post" })).toHaveAttribute("aria-pressed", "true");
  expect(await like.evaluate((button) => button === document.activeElement)).toBe(true);
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("BUTTON");

  await page.goto(`/profile/${admin.id}`);
  const follow = page.getByRole("button", { name: /^(Follow \(\d+\)|Unfollow)$/ });
  await expect(follow).toHaveText(/^Follow/);
  await follow.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Unfollow" })).toBeVisible();
  expect(
    await page.getByRole("button", { name: "Unfollow" }).evaluate((button) => button === document.activeElement),
  ).toBe(true);
});

test("New Blog takes a visitor by the login, Register and back to the editor", async ({ page }) => {
  const email = `ux-${uniqueTag()}@example.com`;
  await page.goto("/posts");
  await page.getByRole("link", { name: "New Blog" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Log in to go on to that page.")).toBeVisible();
  await page.getByRole("main").getByRole("link", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/register$/);
  await page.getByLabel("First Name").fill("Nia");
  await page.getByLabel("Last Name").fill("Newcomer");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByLabel("Wallet Address").fill("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC");
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Your account is created: log in to start.")).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await expect(page).toHaveURL(/\/create-post$/);
  await expect(page.getByRole("heading", { name: "Create Post" })).toBeVisible();
});
