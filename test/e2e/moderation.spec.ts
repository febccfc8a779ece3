import { logIn, registerUser } from "./fixtures/accounts.ts";
import { adminSession } from "./fixtures/admin.ts";
import { expect, test } from "./fixtures/readers.ts";
import { auth, chooseInAccountMenu, shot, uniqueTag } from "./fixtures/screens.ts";

test("a reader reports a comment, a moderator hides it from the queue, and a visitor no longer sees it", async ({
  page,
  newReader,
  request,
}) => {
  const tag = uniqueTag();
  const admin = await adminSession(request);
  const category = `Moderated ${tag}`;
  await request.post("/api/category", { data: { title: category }, headers: auth(admin) });
  const author = await registerUser(request, { firstName: "Author" });
  const post = await (
    await request.post("/api/posts", {
      data: { title: `Keep it kind ${tag}`, description: "<p>Be nice below.</p>", category, isFeatured: "false" },
      headers: auth(author),
    })
  ).json();
  const troll = await registerUser(request, { firstName: "Troll" });
  const abuse = `You are all idiots ${tag}`;
  expect(
    (
      await request.post("/api/comments", { data: { postId: post.id, description: abuse }, headers: auth(troll) })
    ).status(),
  ).toBe(201);
  const moderator = await registerUser(request, { firstName: "Mona" });
  const role = await request.put(`/api/users/role/${moderator.id}`, {
    data: { moderator: true },
    headers: auth(admin),
  });
  expect(role.status()).toBe(200);

  // A visitor sees the comment on the server-rendered page (which is kept until something it shows changes).
  const visitor = await newReader();
  await visitor.goto(`/posts/${post.id}`);
  await expect(visitor.getByText(abuse)).toBeVisible();

  // A reader reports it from the post's page, with the keyboard-reachable Report button beside the comment.
  const reader = await registerUser(request, { firstName: "Reader" });
  await logIn(page, reader.email);
  await page.goto(`/posts/${post.id}`);
  const comment = page.getByRole("listitem").filter({ hasText: abuse });
  await comment.getByRole("button", { name: "Report this comment" }).click();
  const dialog = page.getByRole("dialog", { name: "Report this comment" });
  await dialog.getByText("2. No unhealthy words").click();
  await dialog.getByLabel("A note for the moderators (optional)").fill("Insults every reader");
  await shot(page, "moderation-report");
  await dialog.getByRole("button", { name: "Send report" }).click();
  await expect(dialog.getByRole("status")).toContainText("A moderator will look at it");
  await dialog.getByRole("button", { name: "Close" }).first().click();

  // The moderator finds it in the queue from the account menu and hides it under the rule.
  const moderatorPage = await newReader();
  await logIn(moderatorPage, moderator.email);
  await chooseInAccountMenu(moderatorPage, "Moderation", /\/moderation$/);
  const entry = moderatorPage.getByRole("listitem").filter({ hasText: abuse });
  await expect(entry).toContainText("No unhealthy words (1)");
  await expect(entry).toContainText("Insults every reader");
  await entry.getByLabel("Rule").selectOption({ label: "2. No unhealthy words" });
  await entry.getByLabel("Note to the author (sent with the decision)").fill("No insults, please.");
  await shot(moderatorPage, "moderation-queue");
  await entry.getByRole("button", { name: "Hide" }).click();
  await expect(moderatorPage.getByRole("status")).toContainText("of the public log");
  await expect(entry).toHaveCount(0);

  // The visitor's next look at the page no longer shows it, and the public log lists the decision (not whose).
  await visitor.reload();
  await expect(visitor.getByRole("heading", { name: `Keep it kind ${tag}` })).toBeVisible();
  await expect(visitor.getByText(abuse)).toHaveCount(0);
  await visitor.goto("/moderation/log");
  const log = visitor.getByRole("table");
  await expect(log.getByRole("row").nth(1)).toContainText("A comment");
  await expect(log.getByRole("row").nth(1)).toContainText("Hidden");
  await expect(log.getByRole("row").nth(1)).toContainText("No unhealthy words");
  await expect(log).not.toContainText("Troll");
  await shot(visitor, "moderation-log");

  // The comment's author is told in the app; the notification opens "Decisions about you", where they appeal.
  const trollPage = await newReader();
  await logIn(trollPage, troll.email);
  await trollPage.goto("/notifications");
  await trollPage
    .getByRole("link", {
      name: `A moderator made a decision about what you wrote on “Keep it kind ${tag}”`,
      exact: false,
    })
    .click();
  await expect(trollPage).toHaveURL(/\/decisions$/);
  const decision = trollPage.getByRole("listitem").filter({ hasText: "hid your comment" });
  await expect(decision).toContainText("Rule: No unhealthy words");
  await expect(decision).toContainText("Note: No insults, please.");
  await decision.getByLabel("Why is this decision wrong?").fill("It was a quote from the post, not an insult.");
  await decision.getByRole("button", { name: "Appeal" }).click();
  await expect(decision).toContainText("Appeal waiting for another moderator");
  await shot(trollPage, "moderation-appeal");
});

test("a moderator filters the queue by rule and hides two reported posts at once", async ({ page, request }) => {
  const tag = uniqueTag();
  const admin = await adminSession(request);
  const category = `Bulk ${tag}`;
  await request.post("/api/category", { data: { title: category }, headers: auth(admin) });
  const spammer = await registerUser(request, { firstName: "Spammer" });
  const reader = await registerUser(request, { firstName: "Reader" });
  const titles = [`Cheap pills ${tag}`, `Cheaper pills ${tag}`];
  for (const title of titles) {
    const post = await (
      await request.post("/api/posts", {
        data: { title, description: "<p>Buy now.</p>", category, isFeatured: "false" },
        headers: auth(spammer),
      })
    ).json();
    const reported = await request.post("/api/reports", {
      data: { kind: "post", id: post.id, rule: "spam", note: "" },
      headers: auth(reader),
    });
    expect(reported.status()).toBe(201);
  }
  const moderator = await registerUser(request, { firstName: "Mo" });
  await request.put(`/api/users/role/${moderator.id}`, { data: { moderator: true }, headers: auth(admin) });

  await logIn(page, moderator.email);
  await page.goto("/moderation");
  await page.getByLabel("Rule", { exact: true }).first().selectOption({ label: "Spam" });
  for (const title of titles) await page.getByRole("checkbox", { name: `Select “${title}”` }).check();
  const bulk = page.getByRole("region", { name: "Decide for the selected items" });
  await expect(bulk).toContainText("2 selected");
  await bulk.getByLabel("Rule for the selected").selectOption({ label: "3. No spam" });
  await shot(page, "moderation-bulk");
  await bulk.getByRole("button", { name: "Hide selected" }).click();
  await expect(page.getByRole("status")).toContainText("Hide selected: 2 of 2 selected items.");
  for (const title of titles) await expect(page.getByRole("heading", { name: title })).toHaveCount(0);
  const listed = await (await request.get(`/api/posts?category=${encodeURIComponent(category)}`)).json();
  expect(listed.items).toEqual([]);
});
