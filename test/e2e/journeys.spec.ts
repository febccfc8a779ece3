import { expect, test } from "@playwright/test";
import { adminSession } from "./fixtures/admin.ts";
import { coverPng } from "./fixtures/cover.ts";
import { chooseInAccountMenu, shot, uniqueTag } from "./fixtures/screens.ts";

test.describe.configure({ mode: "serial" });

test("a writer registers, logs in, writes a formatted post with a cover, reads it and comments", async ({
  page,
  request,
}) => {
  const tag = uniqueTag();
  const email = `writer-${tag}@example.com`;
  const password = "a strong password";

  // The admin creates the category the writer will use.
  const admin = await adminSession(request);
  const category = await request.post("/api/category", {
    data: { title: `Chains ${tag}` },
    headers: { authorization: `Bearer ${admin.token}` },
  });
  expect(category.status(), await category.text()).toBe(201);

  await page.goto("/register");
  await page.getByLabel("First Name").fill("Wren");
  await page.getByLabel("Last Name").fill("Writer");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByLabel("Wallet Address").fill("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC");
  await shot(page, "register");
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/login$/);
  // The URL changes before the lazily loaded screen replaces Register's form: wait for the screen itself.
  await expect(page.getByRole("heading", { name: "Login to your account" })).toBeVisible();

  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await shot(page, "login");
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/profile\//);
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem("userInfo"))) ?? "{}")).toMatchObject({ email });

  await page.getByRole("link", { name: "New Blog" }).click();
  await expect(page.getByRole("heading", { name: "Create Post" })).toBeVisible();
  await page.getByLabel("Title").fill(`Blocks and bytes ${tag}`);
  await page.getByLabel("Category").selectOption(`Chains ${tag}`);
  const editor = page.getByRole("textbox", { name: "Description" });
  await editor.click();
  await page.getByLabel("Header").selectOption("2");
  await page.keyboard.type("A heading");
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "Bold" }).click();
  await page.keyboard.type("Bold words");
  await page.getByRole("button", { name: "Bold" }).click();
  await page.keyboard.type(" and plain ones.");
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: await coverPng() });
  await expect(page.getByText("cover.png")).toBeVisible();
  await shot(page, "create-post");
  await page.getByRole("button", { name: "Create" }).click();

  await expect(page).toHaveURL(/\/posts$/);
  await expect(page.getByRole("heading", { name: "Latest Blogs" })).toBeVisible();
  await page.getByRole("link", { name: `Blocks and bytes ${tag}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Blocks and bytes ${tag}` })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "A heading" })).toBeVisible();
  await expect(page.locator(".rich-text strong")).toHaveText("Bold words");
  await expect(page.getByRole("heading", { name: "No comments" })).toBeVisible();

  await page.getByLabel("Add a comment").fill("First!");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText("First!")).toBeVisible();
  await expect(page.getByRole("heading", { name: "1 comment" })).toBeVisible();
  await shot(page, "post-detail");

  // Editing the comment, then the post.
  await page.getByRole("link", { name: "Edit comment" }).click();
  // Wait for the lazily loaded screen with its comment; "Comment" alone also matches the post's "Add a comment".
  await expect(page.getByRole("heading", { name: "Edit your comment" })).toBeVisible();
  const editBox = page.getByRole("textbox", { name: "Comment", exact: true });
  await expect(editBox).toHaveValue("First!");
  await editBox.fill("First, edited!");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByText("First, edited!")).toBeVisible();
  // A second edit starts from the edited text, not the cached first one.
  await page.getByRole("link", { name: "Edit comment" }).click();
  await expect(page.getByRole("heading", { name: "Edit your comment" })).toBeVisible();
  await expect(editBox).toHaveValue("First, edited!");
  await page.goBack();
  await page.getByRole("link", { name: "Edit post" }).click();
  await expect(
    page.getByRole("heading", { name: `Are you sure you want to edit Blocks and bytes ${tag}` }),
  ).toBeVisible();
  await page.getByLabel("Title").fill(`Blocks, bytes and more ${tag}`);
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page).toHaveURL(/\/posts$/);
  await expect(page.getByRole("link", { name: `Blocks, bytes and more ${tag}` })).toBeVisible();
  await shot(page, "posts");

  // A second comment, deleted by its author.
  await page.getByRole("link", { name: `Blocks, bytes and more ${tag}` }).click();
  await page.getByLabel("Add a comment").fill("To be removed");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("heading", { name: "2 comments" })).toBeVisible();
  page.once("dialog", (dialog) => dialog.accept());
  await page.getByRole("button", { name: "Delete comment" }).first().click();
  await expect(page.getByRole("heading", { name: "1 comment" })).toBeVisible();
  await expect(page.getByText("To be removed")).toBeHidden();

  // The profile: photo, details and password.
  await page.getByRole("link", { name: "Profile" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Wren Writer" })).toBeVisible();
  await page.getByRole("link", { name: "Upload Photo" }).click();
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: await coverPng() });
  await page.getByRole("button", { name: "Upload Photo" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Wren Writer" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Wren Writer's photo" })).toBeVisible();
  await page.getByRole("link", { name: "Update Profile" }).click();
  await expect(page.getByText("Do you want to update your profile?")).toBeVisible();
  await page.getByLabel("Bio").fill("I write about blocks.");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByText("I write about blocks.")).toBeVisible();
  await expect(page.getByRole("link", { name: `Blocks, bytes and more ${tag}` })).toBeVisible();
  await shot(page, "profile");

  await chooseInAccountMenu(page, "Change your password", /\/update-password$/);
  await page.getByLabel("Current Password").fill(password);
  await page.getByLabel("Password", { exact: true }).fill("another strong password");
  await page.getByRole("button", { name: "Update Password" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Wren Writer" })).toBeVisible();
  const fresh = await request.post("/api/users/login", { data: { email, password: "another strong password" } });
  expect(fresh.status()).toBe(200);

  // Following another author from their profile.
  await page.goto(`/profile/${admin.id}`);
  await page.getByRole("button", { name: /^Follow \(\d+\)$/ }).click();
  await expect(page.getByRole("button", { name: "Unfollow" })).toBeVisible();
});
