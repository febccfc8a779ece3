import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { adminSession } from "./fixtures/admin.ts";
import { coverPng } from "./fixtures/cover.ts";
import { uniqueTag } from "./fixtures/screens.ts";

/** Console errors and warnings, hydration mismatches included, and uncaught errors. */
function watchConsole(page: Page) {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (["error", "warning"].includes(message.type())) problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

const CLIENT_DIR = path.resolve(import.meta.dirname, "../../dist/client");

/** The source files that the scripts a page loaded were built from, read from their source maps in dist. */
function sourcesOf(scripts: string[]) {
  return scripts.flatMap((url) => {
    const file = path.join(CLIENT_DIR, `${new URL(url).pathname}.map`);
    // A chunk that only imports others has no code, so no map.
    if (!fs.existsSync(file)) return [];
    const map = JSON.parse(fs.readFileSync(file, "utf8"));
    return (map.sources as string[]).map((source) => source.replace(/^(\.\.\/)+/, ""));
  });
}

/** A post by the admin in a category of its own; answers the post and the admin's session. */
async function publish(request: APIRequestContext, category: string, title: string, description: string) {
  const admin = await adminSession(request);
  const auth = { authorization: `Bearer ${admin.token}` };
  await request.post("/api/category", { data: { title: category }, headers: auth });
  const response = await request.post("/api/posts", {
    data: { title, description, category, isFeatured: "false" },
    headers: auth,
  });
  return { post: (await response.json()) as { id: string }, auth };
}

test("reader pages arrive rendered: text, head and list without JavaScript, then hydrate quietly", async ({
  browser,
  request,
}) => {
  const tag = uniqueTag();
  const { post } = await publish(
    request,
    `Ledgers ${tag}`,
    `Server rendered ${tag}`,
    "<p>Readable <strong>before</strong> any script runs.</p>",
  );

  // Without JavaScript: what a crawler, a link preview or a slow phone gets first.
  const plain = await browser.newContext({ javaScriptEnabled: false });
  const noScript = await plain.newPage();
  await noScript.goto(`/posts/${post.id}`);
  await expect(noScript).toHaveTitle(`Server rendered ${tag} | Penchain`);
  await expect(noScript.getByRole("heading", { level: 1, name: `Server rendered ${tag}` })).toBeVisible();
  await expect(noScript.getByText("Readable before any script runs.")).toBeVisible();
  await expect(noScript.locator('meta[property="og:title"]')).toHaveAttribute("content", `Server rendered ${tag}`);
  await expect(noScript.locator('meta[name="description"]')).toHaveAttribute(
    "content",
    "Readable before any script runs.",
  );
  await noScript.goto(`/posts?category=Ledgers%20${tag}`);
  await expect(noScript.getByRole("link", { name: `Server rendered ${tag}` })).toBeVisible();
  await plain.close();

  // With JavaScript, not signed in: the page needs only the tiny entry until the reader presses something; the
  // app then hydrates the same HTML without a warning, and the press is carried out.
  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  const problems = watchConsole(page);
  const scripts: string[] = [];
  const apiCalls: string[] = [];
  page.on("request", (call) => {
    if (call.resourceType() === "script") scripts.push(call.url());
    if (new URL(call.url()).pathname.startsWith("/api/posts")) apiCalls.push(call.url());
  });
  await page.goto("/posts", { waitUntil: "networkidle" });
  await expect(page.getByRole("link", { name: `Server rendered ${tag}` })).toBeVisible();
  expect(scripts).toHaveLength(1);
  await page
    .getByRole("navigation", { name: "Categories" })
    .getByRole("button", { name: `Ledgers ${tag}` })
    .click();
  await expect(page).toHaveURL(/category=Ledgers/);
  await expect(page.getByRole("link", { name: `Server rendered ${tag}` })).toBeVisible();
  expect(scripts.length).toBeGreaterThan(1);
  // The filtered list was fetched once the app ran; the first page's list was not fetched again.
  expect(apiCalls.every((call) => call.includes("category="))).toBe(true);
  await page.getByRole("link", { name: `Server rendered ${tag}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Server rendered ${tag}` })).toBeVisible();
  expect(problems).toEqual([]);
  await visitor.close();
});

test("a signed-in reader's hydrated pages show their own reaction, and likes and comments work", async ({
  browser,
  request,
}) => {
  const tag = uniqueTag();
  const { post, auth } = await publish(request, `Hydrate ${tag}`, `Likeable ${tag}`, "<p>Body</p>");
  await request.put("/api/posts/likes", { data: { postId: post.id }, headers: auth });

  const context = await browser.newContext();
  const session = await (
    await request.post("/api/users/login", { data: { email: "admin@penchain.example", password: "admin password 1" } })
  ).json();
  await context.addInitScript((value) => localStorage.setItem("userInfo", value), JSON.stringify(session));
  const page = await context.newPage();
  const problems = watchConsole(page);
  const apiCalls: string[] = [];
  const scripts: string[] = [];
  page.on("request", (call) => {
    const { pathname } = new URL(call.url());
    if (pathname.startsWith("/api/")) apiCalls.push(pathname);
    if (pathname.startsWith("/assets/") && pathname.endsWith(".js")) scripts.push(call.url());
  });
  await page.goto(`/posts?category=Hydrate%20${tag}`);
  // The server's HTML is everyone's; the reader's own like arrives once the page is theirs.
  const card = page.getByRole("article").filter({ hasText: `Likeable ${tag}` });
  await expect(card.getByRole("button", { name: "1 likes, like this post" })).toHaveAttribute("aria-pressed", "true");
  // Only what may differ for the reader is fetched again: the list, not the categories or the site's settings.
  expect(apiCalls).toContain("/api/posts");
  expect(apiCalls.filter((call) => call.startsWith("/api/category") || call.startsWith("/api/settings"))).toEqual([]);
  // The bell's live count comes with every signed-in page; the notifications' and stats' schemas only with theirs.
  const sources = sourcesOf(scripts);
  expect(sources).toContain("src/shared/schemas/live.ts");
  expect(sources.filter((source) => /schemas\/(notifications|stats)\.ts$/.test(source))).toEqual([]);
  // The API's schemas are zod/mini's (decision 022): classic zod and zod's JSON Schema generator stay out of the
  // browser's build, though the schemas are there.
  const code = scripts.map((url) => fs.readFileSync(path.join(CLIENT_DIR, new URL(url).pathname), "utf8")).join("");
  expect(sources.some((source) => source.includes("node_modules/zod/v4/mini/"))).toBe(true);
  expect(sources.filter((source) => source.includes("node_modules/zod/v4/classic/"))).toEqual([]);
  expect(code).not.toContain("json-schema.org/draft");
  // React Router's production build, not the one with development warnings that its exports name.
  expect(sources.filter((source) => source.includes("react-router/dist/development/"))).toEqual([]);
  expect(sources.some((source) => source.includes("react-router/dist/production/"))).toBe(true);
  await card.getByRole("button", { name: "1 likes, like this post" }).click();
  await expect(card.getByRole("button", { name: "0 likes, like this post" })).toHaveAttribute("aria-pressed", "false");
  await page.goto(`/posts/${post.id}`);
  await page.getByLabel("Add a comment").fill(`Hydrated comment ${tag}`);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText(`Hydrated comment ${tag}`)).toBeVisible();
  // The served post's body is the server's markup: the browser's sanitiser is fetched only for HTML it shows itself.
  const dompurify = (source: string) => source.includes("node_modules/dompurify/");
  expect(sourcesOf(scripts).filter(dompurify)).toEqual([]);
  await page.getByRole("link", { name: "Blogs", exact: true }).first().click();
  await page.getByRole("link", { name: `Likeable ${tag}` }).click();
  await expect(page.locator(".rich-text")).toHaveText("Body");
  expect(sourcesOf(scripts).some(dompurify)).toBe(true);
  expect(problems).toEqual([]);
  await context.close();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("a hydrated page's menu is tied to its button and opens under it", async ({ page }) => {
    await page.goto("/posts");
    const button = page.getByRole("button", { name: "Open navigation" });
    // The first press starts the app; the menu opens once it is there.
    await button.click();
    const menu = page.getByRole("menu");
    await expect(menu).toBeVisible();
    // The ids the server wrote are the ones the browser's components use (same tree, same useId).
    expect(await menu.getAttribute("aria-labelledby")).toBe(await button.getAttribute("id"));
    const below = async () => {
      const [trigger, content] = [await button.boundingBox(), await menu.boundingBox()];
      return Boolean(
        trigger && content && content.y >= trigger.y + trigger.height - 1 && content.x + content.width > trigger.x,
      );
    };
    await expect.poll(below).toBe(true);
  });
});

/** A page of a browser where the site's admin is signed in, and the problems its console reports. */
async function writerPage(browser: Browser, request: APIRequestContext) {
  const session = await (
    await request.post("/api/users/login", { data: { email: "admin@penchain.example", password: "admin password 1" } })
  ).json();
  const context = await browser.newContext();
  await context.addInitScript((value) => localStorage.setItem("userInfo", value), JSON.stringify(session));
  // What the content security policy refuses counts as a problem too, even where the page catches the refusal.
  await context.addInitScript(() =>
    addEventListener("securitypolicyviolation", (event) =>
      console.error(`refused by the content security policy: ${event.violatedDirective} ${event.blockedURI}`),
    ),
  );
  const page = await context.newPage();
  return { context, page, problems: watchConsole(page) };
}

/** Holds the app's start chunk back until `release`: the page stays the server's meanwhile. */
async function holdAppStart(page: Page) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = false;
  await page.route(/\/assets\/start-[\w-]+\.js$/, async (route) => {
    held = true;
    await released;
    await route.continue();
  });
  return { release, held: () => held };
}

test("a writer who presses the description before the app is there types into the editor once it is", async ({
  browser,
  request,
}) => {
  const { context, page, problems } = await writerPage(browser, request);
  // The app's own script waits until the press is made on the server's page.
  const start = await holdAppStart(page);
  await page.goto("/create-post");
  const field = page.getByRole("textbox", { name: "Description" });
  await field.click();
  // The press really came first: the app's script was asked for and is still held.
  await expect.poll(start.held).toBe(true);
  expect(await page.locator("[contenteditable=true]").count()).toBe(0);
  start.release();
  const editor = page.locator("[contenteditable=true]");
  await expect(editor).toBeFocused();
  await page.keyboard.type("Typed <b>at once</b>");
  await expect(editor).toHaveText("Typed <b>at once</b>");
  expect(problems).toEqual([]);
  await context.close();
});

test("what a writer types, picks and chooses before the app is there is still there once it is", async ({
  browser,
  request,
}) => {
  const category = `Early ${uniqueTag()}`;
  const admin = await adminSession(request);
  await request.post("/api/category", {
    data: { title: category },
    headers: { authorization: `Bearer ${admin.token}` },
  });
  const { context, page, problems } = await writerPage(browser, request);
  const start = await holdAppStart(page);
  await page.goto("/create-post");
  // On the server's page, before the app's script has arrived: a title, a category and a cover.
  await page.getByLabel("Title").fill("Typed while the app came");
  await page.getByLabel("Category").selectOption({ label: category });
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: "early-cover.png", mimeType: "image/png", buffer: await coverPng() });
  await page.getByLabel("Title").blur();
  await expect.poll(start.held).toBe(true);
  start.release();
  // The app is there: its header knows who is signed in; the form holds what was given before.
  await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();
  await expect(page.getByText("early-cover.png")).toBeVisible();
  await expect(page.getByLabel("Title")).toHaveValue("Typed while the app came");
  await expect(page.getByLabel("Category")).toHaveValue(category);
  // The form has them, not only the page: sent now, it asks for the description alone.
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("Description is required")).toBeVisible();
  await expect(page.getByText(/Title is required|Category is required/)).toHaveCount(0);
  expect(problems).toEqual([]);
  await context.close();
});

test("a writer who presses the description once the app is there types into the editor at once", async ({
  browser,
  request,
}) => {
  const { context, page, problems } = await writerPage(browser, request);
  // The editor's own script is held until the writer has typed, so the press and the keys land while it is coming.
  let editorAsked = false;
  let release = () => {};
  const typed = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/rich-text-editor-[\w-]+\.js$/, async (route) => {
    editorAsked = true;
    await typed;
    await route.continue();
  });
  await page.goto("/create-post");
  // The app is there: its header knows who is signed in.
  await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();
  expect(editorAsked).toBe(false);
  await page.getByRole("textbox", { name: "Description" }).click();
  // The writer types at once: every key counts, a correction and a new line too.
  await page.keyboard.type("Typed <i>aftr");
  await page.keyboard.press("Backspace");
  await page.keyboard.type("er</i> the start");
  await page.keyboard.press("Enter");
  await page.keyboard.type("and a second line");
  // And pastes (as the browser sends a paste: the text on the clipboard).
  await page.getByRole("textbox", { name: "Description" }).evaluate((field) => {
    const clipboardData = new DataTransfer();
    clipboardData.setData("text/plain", " (pasted <b>as text</b>)");
    field.dispatchEvent(new ClipboardEvent("paste", { clipboardData, bubbles: true, cancelable: true }));
  });
  const editor = page.locator("[contenteditable=true]");
  expect(await editor.count()).toBe(0);
  await expect.poll(() => editorAsked).toBe(true);
  release();
  await expect(editor).toBeFocused();
  await page.keyboard.type(", then more.");
  await expect(editor.locator("p")).toHaveText([
    "Typed <i>after</i> the start",
    "and a second line (pasted <b>as text</b>), then more.",
  ]);
  expect(problems).toEqual([]);
  await context.close();
});
