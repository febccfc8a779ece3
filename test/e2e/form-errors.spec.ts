import { expect, type Page, test } from "@playwright/test";
import { logIn, registerUser } from "./fixtures/accounts.ts";
import { ADMIN, adminSession } from "./fixtures/admin.ts";
import { uniqueTag } from "./fixtures/screens.ts";

/**
 * docs/specification.md §Validation rules: a field's error shows only once the field has been touched. On every form
 * of the spec, a required field left empty shows its message once it has been left, and not before: by the keyboard,
 * as soon as the page is there (a server-rendered form's script may still be coming when the field is left).
 */
async function leaveEmpty(page: Page, label: string, message: string) {
  const field = page.getByLabel(label, { exact: true });
  const error = page.getByText(message, { exact: true });
  await expect(field).toBeVisible();
  await expect(error).toHaveCount(0);
  await field.focus();
  await field.fill("");
  await expect(error).toHaveCount(0);
  await page.keyboard.press("Tab");
  await expect(error).toBeVisible();
}

test.describe.configure({ mode: "serial" });

test("the visitor's forms: register, login, password reset request and new password", async ({ page }) => {
  for (const [label, message] of [
    ["First Name", "First Name is required"],
    ["Last Name", "Last Name is required"],
    ["Email", "Email is required"],
    ["Password", "Password is required"],
    ["Wallet Address", "Wallet Address is required"],
  ]) {
    // Each on a fresh page: the first field left may be left before the app's script has arrived.
    await page.goto("/register");
    await leaveEmpty(page, label as string, message as string);
  }
  await page.goto("/login");
  await leaveEmpty(page, "Email", "Email is required");
  await leaveEmpty(page, "Password", "Password is required");
  await page.goto("/password-reset-token");
  await leaveEmpty(page, "Email", "Email is required");
  await page.goto(`/reset-password/${"x".repeat(43)}`);
  await leaveEmpty(page, "New Password", "Password is required");
});

test("a writer's forms: create and edit a post, comment and edit it, profile, photo, mail, change password", async ({
  page,
  request,
}) => {
  const admin = await adminSession(request);
  const auth = { authorization: `Bearer ${admin.token}` };
  const tag = uniqueTag();
  const category = await (
    await request.post("/api/category", { data: { title: `Forms ${tag}` }, headers: auth })
  ).json();
  const writer = await registerUser(request);
  const writerAuth = { authorization: `Bearer ${writer.token}` };
  const post = await (
    await request.post("/api/posts", {
      data: { title: `Touched ${tag}`, description: "<p>Body</p>", category: category.title, isFeatured: "false" },
      headers: writerAuth,
    })
  ).json();
  const comment = await (
    await request.post("/api/comments", { data: { postId: post.id, description: "Mine" }, headers: writerAuth })
  ).json();
  await logIn(page, writer.email);

  await page.goto("/create-post");
  await leaveEmpty(page, "Title", "Title is required");
  await page.goto(`/update-post/${post.id}`);
  await leaveEmpty(page, "Title", "Title is required");
  await page.goto(`/posts/${post.id}`);
  await leaveEmpty(page, "Add a comment", "Description is required");
  await page.goto(`/update-comment/${comment.id}`);
  await leaveEmpty(page, "Comment", "Description is required");
  await page.goto(`/update-profile/${writer.id}`);
  await leaveEmpty(page, "First Name", "First Name is required");
  await leaveEmpty(page, "Bio", "Bio is required");
  await page.goto("/send-mail");
  await leaveEmpty(page, "Subject", "Subject is required");
  await leaveEmpty(page, "Message", "Message is required");
  await page.goto("/update-password");
  await leaveEmpty(page, "Password", "Password is required");
  // The photo is chosen, not typed: its message shows when the form is sent without one, and not before.
  await page.goto("/upload-profile-photo");
  await expect(page.getByText("Image is required")).toHaveCount(0);
  await page.getByRole("button", { name: "Upload Photo" }).click();
  await expect(page.getByText("Image is required")).toBeVisible();
});

test("an admin's forms: add and rename a category", async ({ page, request }) => {
  const admin = await adminSession(request);
  const tag = uniqueTag();
  const category = await (
    await request.post("/api/category", {
      data: { title: `Renamed ${tag}` },
      headers: { authorization: `Bearer ${admin.token}` },
    })
  ).json();
  await logIn(page, ADMIN.email, ADMIN.password);
  await page.goto("/add-category");
  await leaveEmpty(page, "New Category", "Title is required");
  await page.goto(`/update-category/${category.id}`);
  await leaveEmpty(page, "Title", "Title is required");
});
