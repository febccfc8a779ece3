import path from "node:path";
import { expect, test } from "@playwright/test";
import { adminSession } from "./fixtures/admin.ts";
import { uniqueTag } from "./fixtures/screens.ts";

const SCREENS = path.resolve(import.meta.dirname, "../../test-results/screens");

test("a visitor browses, filters by category and opens a post; a reader likes it", async ({ page, request }) => {
  const tag = uniqueTag();
  const admin = await adminSession(request);
  const auth = { authorization: `Bearer ${admin.token}` };
  for (const title of [`Art ${tag}`, `Code ${tag}`])
    await request.post("/api/category", { data: { title }, headers: auth });
  await request.post("/api/posts", {
    data: { title: `Painting ${tag}`, description: "<p>Colours</p>", category: `Art ${tag}`, isFeatured: "false" },
    headers: auth,
  });
  await request.post("/api/posts", {
    data: { title: `Compilers ${tag}`, description: "<p>Parsing</p>", category: `Code ${tag}`, isFeatured: "false" },
    headers: auth,
  });

  await page.goto("/posts");
  await expect(page.getByRole("link", { name: `Painting ${tag}` })).toBeVisible();
  await page
    .getByRole("navigation", { name: "Categories" })
    .getByRole("button", { name: `Code ${tag}` })
    .click();
  await expect(page).toHaveURL(/category=Code/);
  await expect(page.getByRole("link", { name: `Compilers ${tag}` })).toBeVisible();
  await expect(page.getByRole("link", { name: `Painting ${tag}` })).toBeHidden();
  await page.getByRole("button", { name: "View All Blogs" }).click();
  await expect(page.getByRole("link", { name: `Painting ${tag}` })).toBeVisible();

  const card = page.getByRole("article").filter({ hasText: `Compilers ${tag}` });
  await card.getByRole("link", { name: "Read More.." }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Compilers ${tag}` })).toBeVisible();
  await expect(page.getByLabel("Add a comment")).toBeHidden();

  // A reader signs in and likes it; the list reloads with the count.
  const email = `reader-${tag}@example.com`;
  await request.post("/api/users/register", {
    data: {
      firstName: "Rae",
      lastName: "Reader",
      email,
      password: "reader password",
      walletAddress: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
    },
  });
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("reader password");
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/profile\//);
  await page.goto("/posts");
  const liked = page.getByRole("article").filter({ hasText: `Compilers ${tag}` });
  await liked.getByRole("button", { name: /likes, like this post/ }).click();
  await expect(liked.getByRole("button", { name: "1 likes, like this post" })).toHaveAttribute("aria-pressed", "true");
});

test.describe("on a 360 px phone", () => {
  test.use({ viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });

  for (const [name, route] of [
    ["posts", "/posts"],
    ["login", "/login"],
    ["register", "/register"],
    ["password-reset", "/password-reset-token"],
  ] as const) {
    test(`${name} fits the screen`, async ({ page }) => {
      await page.goto(route);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      // Mobile emulation widens innerWidth to fit overflowing content, so compare with the screen itself.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await page.screenshot({ path: path.join(SCREENS, `phone-${name}.png`), fullPage: true });
    });
  }
});

test("a signed-in user messages another from their profile", async ({ page, request }) => {
  const tag = uniqueTag();
  const [writer, reader] = [`w-${tag}@example.com`, `r-${tag}@example.com`];
  for (const [email, first] of [
    [writer, "Wanda"],
    [reader, "Rory"],
  ]) {
    await request.post("/api/users/register", {
      data: {
        firstName: first,
        lastName: "Test",
        email,
        password: "test password",
        walletAddress: "0x976EA74026E726554dB657fA54763abd0C3a0aa9",
      },
    });
  }
  const writerSession = await (
    await request.post("/api/users/login", { data: { email: writer, password: "test password" } })
  ).json();
  await page.goto("/login");
  await page.getByLabel("Email").fill(reader);
  await page.getByLabel("Password").fill("test password");
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/profile\//);
  await page.goto(`/profile/${writerSession.id}`);
  await page.getByRole("link", { name: "Send Message" }).click();
  await expect(page.getByText("To: Wanda Test")).toBeVisible();
  await expect(page.getByText(writer)).toBeHidden();
  await page.getByLabel("Subject").fill("Loved your post");
  await page.getByRole("textbox", { name: "Message" }).fill("Please write more.");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page).toHaveURL(new RegExp(`/profile/${writerSession.id}$`));
});
