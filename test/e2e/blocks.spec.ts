import { logIn, registerUser } from "./fixtures/accounts.ts";
import { adminSession } from "./fixtures/admin.ts";
import { expect, test } from "./fixtures/readers.ts";
import { auth, chooseInAccountMenu, shot, uniqueTag } from "./fixtures/screens.ts";

test("a writer blocks a pest from their profile, holds first-time comments, and approves one on the post", async ({
  page,
  newReader,
  request,
}) => {
  const tag = uniqueTag();
  const admin = await adminSession(request);
  const category = `Blocks ${tag}`;
  await request.post("/api/category", { data: { title: category }, headers: auth(admin) });
  const writer = await registerUser(request, { firstName: "Wren" });
  const post = await (
    await request.post("/api/posts", {
      data: { title: `Garden notes ${tag}`, description: "<p>Roses.</p>", category, isFeatured: "false" },
      headers: auth(writer),
    })
  ).json();
  const pest = await registerUser(request, { firstName: "Pest" });
  const rude = `Your roses are ugly ${tag}`;
  await request.post("/api/comments", { data: { postId: post.id, description: rude }, headers: auth(pest) });

  // The writer blocks the pest from the pest's profile; the confirmation says what it does.
  await logIn(page, writer.email);
  await page.goto(`/profile/${pest.id}`);
  page.once("dialog", (dialog) => {
    expect(dialog.message()).toContain("They are not told");
    void dialog.accept();
  });
  await page.getByRole("button", { name: "Block" }).click();
  await expect(page.getByRole("button", { name: "Unblock" })).toBeVisible();

  // A visitor no longer sees the pest's comment on the writer's post.
  const visitor = await newReader();
  await visitor.goto(`/posts/${post.id}`);
  await expect(visitor.getByRole("heading", { name: `Garden notes ${tag}` })).toBeVisible();
  await expect(visitor.getByText(rude)).toHaveCount(0);

  // Settings list the block; the writer turns on holding first-time commenters.
  await chooseInAccountMenu(page, "Blocks and mutes", /\/settings\/blocks$/);
  const blocked = page.getByRole("region", { name: "Blocked" });
  await expect(blocked.getByRole("listitem")).toContainText("Pest");
  await page.getByLabel("Hold comments from first-time commenters").check();
  await expect(page.getByLabel("Hold comments from first-time commenters")).toBeChecked();
  await shot(page, "blocks-settings");

  // A newcomer's comment waits; the writer approves it on the post's page, and the visitor then sees it.
  const newcomer = await registerUser(request, { firstName: "Newt" });
  const kind = `Lovely roses ${tag}`;
  const created = await request.post("/api/comments", {
    data: { postId: post.id, description: kind },
    headers: auth(newcomer),
  });
  expect((await created.json()).waitingForReview).toBe(true);
  await page.goto(`/posts/${post.id}`);
  const waiting = page.getByRole("region", { name: /Waiting for your approval/ });
  await expect(waiting).toContainText(kind);
  await shot(page, "blocks-waiting-comment");
  await waiting.getByRole("button", { name: "Approve" }).click();
  await expect(waiting).toHaveCount(0);
  await visitor.reload();
  await expect(visitor.getByText(kind)).toBeVisible();
});
