import { createRequire } from "node:module";
import { type APIRequestContext, type Browser, expect, test } from "@playwright/test";
import { PASSWORD, registerUser, type TestUser } from "./fixtures/accounts.ts";
import { ADMIN, adminSession } from "./fixtures/admin.ts";
import { auth, shot, uniqueTag } from "./fixtures/screens.ts";

// Issue 59's empty and refusal states, the stats' and the log's phone tables, the editor's focus and the queue's rule.

const AXE = createRequire(import.meta.url).resolve("axe-core");
const PHONE = { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true };

async function signedIn(browser: Browser, request: APIRequestContext, user: TestUser, phone = false) {
  // axe is injected as a script the site's CSP would refuse.
  const context = await browser.newContext({ ...(phone ? PHONE : {}), bypassCSP: true });
  const session = await (
    await request.post("/api/users/login", { data: { email: user.email, password: PASSWORD } })
  ).text();
  await context.addInitScript((value) => localStorage.setItem("userInfo", value), session);
  return { context, page: await context.newPage() };
}

/** A published post by `author` in a new category. */
async function publish(request: APIRequestContext, author: TestUser, title: string) {
  const admin = await adminSession(request);
  const category = `States ${uniqueTag()}`;
  await request.post("/api/category", { data: { title: category }, headers: auth(admin) });
  const answer = await request.post("/api/posts", {
    data: { title, description: "<p>Text</p>", category, isFeatured: "false" },
    headers: auth(author),
  });
  expect(answer.status()).toBe(201);
  return (await answer.json()) as { id: string };
}

test("an empty Following feed says why and offers to follow the latest authors", async ({ browser, request }) => {
  const author = await registerUser(request, { firstName: "Suggested" });
  await publish(request, author, `Followable ${uniqueTag()}`);
  const reader = await registerUser(request);
  const { context, page } = await signedIn(browser, request, reader);
  await page.goto("/posts?feed=following");
  await expect(page.getByText("Nothing here yet: this feed shows the posts of the authors you follow.")).toBeVisible({
    timeout: 15_000,
  });
  const row = page.getByRole("listitem").filter({ hasText: "Suggested Tester" }).first();
  await shot(page, "following-empty");
  await row.getByRole("button", { name: /^Follow/ }).click();
  await expect(row.getByRole("button", { name: /^Unfollow/ })).toBeVisible();
  await context.close();
});

test("a post that is gone has a heading and a way back to the posts", async ({ browser, request }) => {
  const reader = await registerUser(request);
  const { context, page } = await signedIn(browser, request, reader);
  await page.goto("/posts");
  await expect(page.getByRole("link", { name: "Notifications" })).toBeVisible({ timeout: 15_000 });
  // Reached inside the app (the server answers its own 404 page to an address typed in).
  await page.evaluate(() => {
    window.history.pushState({}, "", "/posts/00000000-0000-4000-8000-000000000000");
    window.dispatchEvent(new PopStateEvent("popstate"));
  });
  await expect(page.getByRole("heading", { level: 1, name: "Post not found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to all posts" }).click();
  await expect(page).toHaveURL(/\/posts$/);
  await context.close();
});

test("the stats' tables say on a phone that they scroll sideways, and the desktop does not", async ({
  browser,
  request,
}) => {
  const writer = await registerUser(request);
  for (const phone of [true, false]) {
    const { context, page } = await signedIn(browser, request, writer, phone);
    await page.goto("/stats");
    await expect(page.getByText(/^Views: every time a page was opened in the period\./)).toBeVisible({
      timeout: 20_000,
    });
    const cue = page.getByText("Swipe the table sideways for its other columns.").first();
    if (phone) await expect(cue).toBeVisible();
    else await expect(cue).toBeHidden();
    await context.close();
  }
});

test("the moderation log's table is reached by keyboard on a phone", async ({ browser, request }) => {
  const admin = await adminSession(request);
  const writer = await registerUser(request);
  const post = await publish(request, writer, `Logged ${uniqueTag()}`);
  const acted = await request.post("/api/moderation/actions", {
    data: { target: { kind: "post", id: post.id }, action: "hide", rule: "other", note: "" },
    headers: auth(admin),
  });
  expect(acted.status()).toBe(200);
  const context = await browser.newContext({ ...PHONE, bypassCSP: true });
  const page = await context.newPage();
  await page.goto("/moderation/log");
  await page.keyboard.press("Shift");
  await expect(page.getByRole("table")).toBeVisible({ timeout: 15_000 });
  await page.addScriptTag({ path: AXE });
  const findings = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (options: unknown) => Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run({ runOnly: { type: "rule", values: ["scrollable-region-focusable"] } })).violations;
  });
  expect(findings).toEqual([]);
  await context.close();
});

test("the editor shows where the keyboard is", async ({ browser, request }) => {
  const writer = await registerUser(request);
  const { context, page } = await signedIn(browser, request, writer);
  await page.goto("/create-post");
  const text = page.getByRole("textbox", { name: "Description" });
  await expect(text).toBeVisible({ timeout: 20_000 });
  // The area under the toolbar, which holds the text before and after the editor has loaded.
  const area = page.locator('[role="toolbar"][aria-label="Formatting"] + div');
  const outline = () => area.evaluate((element) => getComputedStyle(element).outlineStyle);
  expect(await outline()).toBe("none");
  await text.focus();
  await expect.poll(outline).toBe("solid");
  await page.keyboard.type("Typed");
  await expect(page.locator(".ProseMirror")).toBeFocused({ timeout: 20_000 });
  await expect.poll(outline).toBe("solid");
  await shot(page, "editor-focus");
  await context.close();
});

test("the queue chooses the rule the report names, and greyed actions say why", async ({ browser, request }) => {
  const rules = (await (await request.get("/api/rules")).json()) as {
    rules: { id: string; number: number; title: string }[];
  };
  const rule = rules.rules[0];
  if (!rule) throw new Error("the site has no rules");
  const writer = await registerUser(request);
  const reader = await registerUser(request);
  const ruled = `Ruled ${uniqueTag()}`;
  const other = `Unruled ${uniqueTag()}`;
  const reports: [title: string, rule: string][] = [
    [ruled, rule.id],
    [other, "other"],
  ];
  for (const [title, named] of reports) {
    const post = await publish(request, writer, title);
    const reported = await request.post("/api/reports", {
      data: { kind: "post", id: post.id, rule: named, note: "" },
      headers: auth(reader),
    });
    expect(reported.status()).toBe(201);
  }
  const session = await (await request.post("/api/users/login", { data: ADMIN })).text();
  const context = await browser.newContext();
  await context.addInitScript((value) => localStorage.setItem("userInfo", value), session);
  const page = await context.newPage();
  await page.goto("/moderation");
  const entry = (title: string) =>
    page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) });
  await expect(entry(ruled).getByLabel("Rule", { exact: true })).toHaveValue(rule.id, { timeout: 20_000 });
  await expect(entry(ruled).getByRole("button", { name: "Hide" })).toBeEnabled();
  await expect(entry(other).getByLabel("Rule", { exact: true })).toHaveValue("");
  await expect(
    entry(other).getByText("Choose the rule it breaks to act; Dismiss and Approve need none."),
  ).toBeVisible();
  await expect(entry(other).getByRole("button", { name: "Hide" })).toBeDisabled();
  await shot(page, "queue-rule-chosen");
  await context.close();
});
