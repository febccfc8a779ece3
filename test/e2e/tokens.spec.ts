import { expect, test } from "@playwright/test";
import { logIn, registerUser } from "./fixtures/accounts.ts";
import { adminSession } from "./fixtures/admin.ts";
import { seriousViolations } from "./fixtures/axe.ts";
import { chooseInAccountMenu, shot, uniqueTag } from "./fixtures/screens.ts";

// axe-core is injected as a script of its own.
test.use({ bypassCSP: true });

test("a user makes an API token, a script uses it within its scopes, and the user revokes it", async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(90_000);
  const user = await registerUser(request, { firstName: "Tobias" });
  await logIn(page, user.email);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await chooseInAccountMenu(page, "API tokens", /\/settings\/tokens$/);
  await expect(page.getByText("You have no tokens.")).toBeVisible();
  await expect(page.getByRole("checkbox", { name: /^admin/ })).toHaveCount(0);

  await page.getByLabel("Name").fill("Publishing script");
  await page.getByRole("checkbox", { name: /^posts:write/ }).check();
  await page.getByLabel("Expires").selectOption("30");
  await page.getByRole("button", { name: "Create token" }).click();
  const secret = (await page.getByTestId("new-token").textContent()) ?? "";
  expect(secret).toMatch(/^pcn_[A-Za-z0-9_-]{43}$/);
  await page.getByRole("button", { name: "Copy token" }).click();
  await expect(page.getByText("The token is on your clipboard.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  expect(await seriousViolations(page)).toEqual([]);
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `tokens-secret-${width}`);
  }

  // The script: a draft with the token, its rate limit advertised; what it has no scope for, refused.
  const headers = { authorization: `Bearer ${secret}` };
  const admin = await adminSession(request);
  const category = `Scripts ${uniqueTag()}`;
  await request.post("/api/category", {
    data: { title: category },
    headers: { authorization: `Bearer ${admin.token}` },
  });
  const draft = await request.post("/api/posts", {
    headers,
    data: {
      title: "From a script",
      description: "<p>Hello</p>",
      category,
      isFeatured: false,
      status: "draft",
    },
  });
  expect(draft.status(), await draft.text()).toBe(201);
  expect(draft.headers().ratelimit).toMatch(/^"token";r=\d+;t=\d+$/);
  expect(draft.headers()["ratelimit-policy"]).toMatch(/^"token";q=\d+;w=60$/);
  expect((await request.get("/api/stats/author", { headers })).status()).toBe(403);
  expect((await request.get("/api/tokens", { headers })).status()).toBe(403);

  await page.getByRole("button", { name: "Done" }).click();
  await page.reload();
  const row = page.getByRole("listitem").filter({ hasText: "Publishing script" });
  await expect(row).toContainText("posts:write");
  await expect(row).toContainText("last used");
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `tokens-list-${width}`);
  }
  expect(await seriousViolations(page)).toEqual([]);

  page.once("dialog", (dialog) => void dialog.accept());
  await row.getByRole("button", { name: "Revoke Publishing script" }).click();
  await expect(page.getByText("You have no tokens.")).toBeVisible();
  expect((await request.get("/api/posts/drafts", { headers })).status()).toBe(401);
});
