import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { logIn, registerUser } from "./fixtures/accounts.ts";
import { adminSession } from "./fixtures/admin.ts";
import { uniqueTag } from "./fixtures/screens.ts";

/** A category and a published post whose body holds a word no other post has. */
async function postWithWord(request: APIRequestContext) {
  const tag = uniqueTag();
  const admin = await adminSession(request);
  const headers = { authorization: `Bearer ${admin.token}` };
  const category = `Nature ${tag}`;
  await request.post("/api/category", { data: { title: category }, headers });
  const word = `quokka${tag}`;
  const title = `Island notes ${tag}`;
  const response = await request.post("/api/posts", {
    data: {
      title,
      description: `<p>On Rottnest the ${word} smiles. &lt;img src=x onerror=alert(1)&gt; is just text here.</p>`,
      category,
      isFeatured: "false",
    },
    headers,
  });
  expect(response.status()).toBe(201);
  return { word, title, category };
}

async function expectResult(page: Page, title: string, word: string) {
  const card = page.getByRole("article").filter({ hasText: title });
  await expect(card).toBeVisible();
  // The matching word is marked in the excerpt; the post's markup-looking text stays text.
  await expect(card.locator("mark")).toHaveText(word);
  await expect(card).toContainText("<img src=x onerror=alert(1)> is just text here");
  await expect(card.locator("img[src=x]")).toHaveCount(0);
}

test("a reader finds a post by a word in its body from the bar of a server-rendered page", async ({
  page,
  request,
}) => {
  const { word, title, category } = await postWithWord(request);
  // The server-rendered page's bar works as a plain form.
  await page.goto(`/posts?category=${encodeURIComponent(category)}`);
  const bar = page.getByRole("banner").getByRole("search");
  await bar.getByRole("searchbox", { name: "Search posts" }).fill(word.slice(0, -2));
  await bar.getByRole("searchbox", { name: "Search posts" }).press("Enter");
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${word.slice(0, -2)}$`));
  await expectResult(page, title, word);
  // The same address loaded afresh is rendered on the server: results, marks, escaped text, kept from search engines.
  const served = await request.get(`/search?q=${word}`);
  const html = await served.text();
  expect(served.status()).toBe(200);
  expect(html).toContain('<meta name="robots" content="noindex" />');
  expect(html).toMatch(new RegExp(`<mark[^>]*>${word}</mark>`));
  expect(html).toContain("&lt;img src=x onerror=alert(1)&gt; is just text here");
  expect(html).not.toContain("<img src=x");

  // The search page's own form, with a filter: another category finds nothing.
  const form = page.getByRole("main").getByRole("search");
  await form.getByRole("combobox", { name: "Category" }).selectOption(category);
  await form.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/category=Nature/);
  await expectResult(page, title, word);
  await form.getByRole("searchbox", { name: "Search posts" }).fill(`${word} -rottnest`);
  await form.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText("No Blog Found")).toBeVisible();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 800 }, isMobile: true, hasTouch: true });

  test("a reader opens search from the bar and finds a post", async ({ page, request }) => {
    const { word, title } = await postWithWord(request);
    await page.goto("/");
    await page.getByRole("banner").getByRole("link", { name: "Search" }).tap();
    await expect(page).toHaveURL(/\/search$/);
    const field = page.getByRole("main").getByRole("searchbox", { name: "Search posts" });
    await field.fill(word);
    await field.press("Enter");
    await expectResult(page, title, word);
    // The phone menu leads there too.
    await page.getByRole("button", { name: "Open navigation" }).tap();
    await expect(page.getByRole("menuitem", { name: "Search" })).toBeVisible();
  });
});

test.describe("writing", () => {
  // The author's clock is not the server's: the schedule is read in the browser's zone.
  test.use({ timezoneId: "Asia/Kolkata" });

  test("an author saves a draft nobody else sees, schedules it, and sees it publish", async ({
    page,
    request,
    browser,
  }) => {
    const tag = uniqueTag();
    const admin = await adminSession(request);
    const category = `Drafts ${tag}`;
    await request.post("/api/category", {
      data: { title: category },
      headers: { authorization: `Bearer ${admin.token}` },
    });
    const author = await registerUser(request, { firstName: "Dora" });
    await logIn(page, author.email);
    await expect(page).toHaveURL(/\/profile\//);

    const title = `Not yet ${tag}`;
    await page.goto("/create-post");
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Category").selectOption(category);
    await page.locator(".ProseMirror").click();
    await page.keyboard.type("Words that wait for their moment.");
    await expect(page.getByText(/^Saved in this browser at \d\d:\d\d$/)).toBeVisible();
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByText("Draft. Only you can see it until you publish it.")).toBeVisible();
    const postUrl = page.url();
    expect(postUrl).toMatch(/\/posts\/[0-9a-f-]{36}$/);

    // Anyone else: not in the list, not at its address.
    const visitor = await browser.newPage();
    await visitor.goto("/posts");
    await expect(visitor.getByRole("link", { name: title })).toHaveCount(0);
    const response = await visitor.goto(postUrl);
    expect(response?.status()).toBe(404);

    // The profile's Drafts tab lists it; Edit schedules it a few seconds ahead, in the author's time.
    await page.getByRole("link", { name: "Profile" }).first().click();
    await page.getByRole("tab", { name: "Drafts" }).click();
    await expect(page.getByText("Draft", { exact: true })).toBeVisible();
    await page.getByRole("link", { name: `Edit ${title}` }).click();
    const soon = await page.evaluate(() => {
      const at = new Date(Date.now() + 8_000);
      return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
    });
    await page.getByLabel("Publish later, on").fill(soon);
    await page.getByRole("button", { name: "Schedule" }).click();
    await expect(page.getByText(/^Scheduled for .+\. Only you can see it until then\.$/)).toBeVisible();
    const shown = await page.getByText(/^Scheduled for/).textContent();
    // Shown back in the author's zone: the minute they picked.
    expect(shown).toContain(soon.slice(11, 16));

    // It publishes itself (the server checks every 5 s) and the visitor finds it.
    await expect(async () => {
      await visitor.goto("/posts");
      await expect(visitor.getByRole("link", { name: title })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    expect((await visitor.goto(postUrl))?.status()).toBe(200);
    await visitor.close();
  });

  test("nothing typed is lost: a closed tab's post is offered back and restored", async ({ page, request }) => {
    const author = await registerUser(request, { firstName: "Rory" });
    await logIn(page, author.email);
    await expect(page).toHaveURL(/\/profile\//);
    await page.goto("/create-post");
    await page.getByLabel("Title").fill("Half a thought");
    await page.locator(".ProseMirror").click();
    await page.keyboard.type("It was going somewhere.");
    await expect(page.getByText(/^Saved in this browser at \d\d:\d\d$/)).toBeVisible();
    await page.reload();
    await expect(page.getByText(/^This browser kept what you typed here/)).toBeVisible();
    await expect(page.getByLabel("Title")).toHaveValue("");
    await page.getByRole("button", { name: "Restore" }).click();
    await expect(page.getByLabel("Title")).toHaveValue("Half a thought");
    await expect(page.locator(".ProseMirror")).toHaveText("It was going somewhere.");
  });
});
