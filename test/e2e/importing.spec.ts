import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { wxr, zipOf } from "../support/archives.ts";
import { png } from "../support/images.ts";
import { logIn } from "./fixtures/accounts.ts";
import { ADMIN } from "./fixtures/admin.ts";
import { seriousViolations } from "./fixtures/axe.ts";
import { chooseInAccountMenu, shot } from "./fixtures/screens.ts";

// axe-core is injected as a script of its own.
test.use({ bypassCSP: true });

test("an author imports a WordPress export and watches the progress bar finish; the old address leads to the post", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  const posts = Array.from({ length: 120 }, (_, index) => ({
    id: index + 1,
    title: `Old post ${index + 1} (${stamp})`,
    body: `<p>Written long ago, number ${index + 1}.</p>`,
    link: `https://old.example/${stamp}/post-${index + 1}/`,
    thumbnail: index === 0 ? 1000 : undefined,
    comments:
      index === 0 ? [{ id: 1, author: "Wanda Reader", date: "2019-05-02 08:30:00", content: "Still true today." }] : [],
  }));
  const archive = await zipOf({
    "blog.WordPress.xml": wxr(posts, [{ id: 1000, url: "https://old.example/wp-content/uploads/2019/05/cover.png" }]),
    "wp-content/uploads/2019/05/cover.png": await png(800, 500),
  });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "penchain-import-")), "old-blog.zip");
  fs.writeFileSync(file, archive);

  // A writer past the new-account rules (the admin): a new account's import keeps all but its day's few as drafts.
  await logIn(page, ADMIN.email, ADMIN.password);
  await chooseInAccountMenu(page, "Import", /\/import$/);
  await expect(page.getByRole("heading", { name: "Import", level: 1 })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // Sent without a file: the form says what is missing.
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByText("Choose the archive to import")).toBeVisible();

  await page.getByLabel("Where it comes from").selectOption("wxr");
  await page.getByLabel("Archive file").setInputFiles(file);
  await page.getByRole("button", { name: "Import" }).click();
  const progress = page.getByRole("progressbar", { name: "Import progress" });
  await expect(progress).toBeVisible();
  await expect(page.getByRole("status")).toContainText("of 120 items");
  await expect(page.getByRole("status")).toContainText("Import finished. 120 of 120 items (100%).", {
    timeout: 90_000,
  });
  await expect(progress).toHaveAttribute("value", "120");
  await shot(page, "import-finished");
  expect(await seriousViolations(page)).toEqual([]);

  // The old address answers with the new post, its cover and its comment under the original writer's name.
  await page.goto(`/${stamp}/post-1/`);
  await expect(page).toHaveURL(/\/posts\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: `Old post 1 (${stamp})` })).toBeVisible();
  await expect(page.getByText("Wanda Reader (imported)")).toBeVisible();
  await expect(page.getByText("Still true today.")).toBeVisible();
});
