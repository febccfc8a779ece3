import { createRequire } from "node:module";
import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { PASSWORD, registerUser, type TestUser } from "./fixtures/accounts.ts";
import { adminSession } from "./fixtures/admin.ts";
import { coverPng } from "./fixtures/cover.ts";
import { auth, shot, uniqueTag } from "./fixtures/screens.ts";

// Issue 59's minors: the design card's drop zone, stats, confirmations, empty and refusal states, accessibility.

const AXE = createRequire(import.meta.url).resolve("axe-core");
/** react-dropzone's box: the focusable element around the file input. */
const BOX = '[tabindex="0"]:has(input[type=file])';
const PHONE = { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true };

/** A page signed in as `user`, at a phone's width when `phone`. */
async function signedInPage(
  browser: Browser,
  request: APIRequestContext,
  user: TestUser,
  phone = false,
  colorScheme: "light" | "dark" = "light",
  bypassCSP = false,
) {
  // axe is injected as a script the site's CSP would refuse.
  const context = await browser.newContext({ ...(phone ? PHONE : {}), colorScheme, bypassCSP });
  const session = await (
    await request.post("/api/users/login", { data: { email: user.email, password: PASSWORD } })
  ).text();
  await context.addInitScript((value) => localStorage.setItem("userInfo", value), session);
  return { context, page: await context.newPage() };
}

/** Every script the page fetches: its address, its bytes on the wire and whether it holds react-dropzone. */
function watchScripts(page: Page) {
  const scripts: { url: string; bytes: number; dropzone: boolean }[] = [];
  page.on("requestfinished", async (request) => {
    if (request.resourceType() !== "script") return;
    const response = await request.response();
    const body = (await response?.body().catch(() => undefined))?.toString() ?? "";
    const sizes = await request.sizes().catch(() => undefined);
    if (!sizes) return;
    scripts.push({
      url: request.url(),
      bytes: sizes.responseBodySize + sizes.responseHeadersSize,
      dropzone: body.includes("Too many files"),
    });
  });
  return scripts;
}

/** Carries `files` (made in the page) over `selector` and drops them, as a drag from the desktop does. */
async function dropFiles(page: Page, selector: string, files: { name: string; type: string; size?: number }[]) {
  const transfer = await page.evaluateHandle((list) => {
    const data = new DataTransfer();
    for (const file of list) data.items.add(new File([new Uint8Array(file.size ?? 8)], file.name, { type: file.type }));
    return data;
  }, files);
  await page.dispatchEvent(selector, "dragenter", { dataTransfer: transfer });
  await page.dispatchEvent(selector, "dragover", { dataTransfer: transfer });
  return async () => page.dispatchEvent(selector, "drop", { dataTransfer: transfer });
}

test.describe("the design card's drop zone", () => {
  for (const phone of [false, true]) {
    test(`Create Blog takes one image by drop, click or key, and refuses in react-dropzone's words (${phone ? "phone" : "desktop"})`, async ({
      browser,
      request,
    }) => {
      const writer = await registerUser(request);
      const { context, page } = await signedInPage(browser, request, writer, phone);
      const scripts = watchScripts(page);
      await page.goto("/create-post");
      // The bar knows who is signed in (on a phone its Logout is in the menu).
      await expect(page.getByRole("link", { name: "Notifications" })).toBeVisible({ timeout: 15_000 });
      const box = page.getByText("Drag an image here, or click to choose one");
      await expect(box).toBeVisible();
      const name = phone ? "phone" : "desktop";
      await shot(page, `drop-zone-empty-${name}`);
      // A file carried over the box lights it; dropped, an SVG is refused in the spec's words.
      const drop = await dropFiles(page, BOX, [{ name: "x.svg", type: "image/svg+xml" }]);
      await expect(page.getByText("Drop the image here")).toBeVisible();
      await drop();
      await expect(page.getByRole("alert")).toHaveText(
        "File type must be one of image/jpeg, .jpg, .jpeg, image/png, .png",
      );
      // The keyboard reaches the box and Enter opens the file chooser, which takes one file only.
      await page.locator(BOX).focus();
      const chooser = page.waitForEvent("filechooser");
      await page.keyboard.press("Enter");
      const picker = await chooser;
      expect(picker.isMultiple()).toBe(false);
      await picker.setFiles({ name: "cover.png", mimeType: "image/png", buffer: await coverPng() });
      await expect(page.getByRole("img", { name: "Chosen image" })).toBeVisible();
      await expect(page.getByRole("alert")).toHaveCount(0);
      await shot(page, `drop-zone-image-${name}`);
      // Two files, then one too large: refused beside the image kept.
      await (
        await dropFiles(page, BOX, [
          { name: "a.png", type: "image/png" },
          { name: "b.png", type: "image/png" },
        ])
      )();
      await expect(page.getByRole("alert")).toHaveText("Too many files");
      await (await dropFiles(page, BOX, [{ name: "large.jpg", type: "image/jpeg", size: 5 * 1024 * 1024 + 1 }]))();
      await expect(page.getByRole("alert")).toHaveText("File is larger than 5242880 bytes");
      await expect(page.getByText("cover.png")).toBeVisible();
      await shot(page, `drop-zone-refusal-${name}`);
      // react-dropzone came with the writer's screen (what the screen's scripts weigh is noted; script-budget.spec.ts
      // holds them to the budget).
      expect(scripts.some((script) => script.dropzone)).toBe(true);
      const kib = scripts.reduce((sum, script) => sum + script.bytes, 0) / 1024;
      test.info().annotations.push({ type: "script KiB", description: kib.toFixed(1) });
      await context.close();
    });
  }

  test("readers never fetch react-dropzone; the profile photo's drop zone is react-dropzone's", async ({
    browser,
    request,
  }) => {
    const admin = await adminSession(request);
    const tag = uniqueTag();
    await request.post("/api/category", { data: { title: `Drop ${tag}` }, headers: auth(admin) });
    const post = await (
      await request.post("/api/posts", {
        data: { title: `Dropless ${tag}`, description: "<p>Text</p>", category: `Drop ${tag}`, isFeatured: "false" },
        headers: auth(admin),
      })
    ).json();
    const reader = await browser.newPage();
    const scripts = watchScripts(reader);
    for (const path of ["/", "/posts", `/posts/${post.id}`]) {
      await reader.goto(path);
      // The app starts at a reader's first key press.
      await reader.keyboard.press("Shift");
      await reader.waitForLoadState("networkidle");
    }
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((script) => script.dropzone)).toEqual([]);
    await reader.close();

    const writer = await registerUser(request);
    const { context, page } = await signedInPage(browser, request, writer);
    await page.goto("/upload-profile-photo");
    const drop = await dropFiles(page, BOX, [{ name: "x.webp", type: "image/webp" }]);
    await drop();
    await expect(page.getByRole("alert")).toHaveText(
      "File type must be one of image/jpeg, .jpg, .jpeg, image/png, .png, image/gif, .gif",
    );
    await context.close();
  });
});

/** axe-core's findings of `rules` on the page as it stands, as "rule: targets". */
async function axeFindings(page: Page, rules: string[]) {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async (only) => {
    type Result = { violations: { id: string; nodes: { target: string[] }[] }[] };
    const axe = (window as unknown as { axe: { run: (options: object) => Promise<Result> } }).axe;
    const result = await axe.run({ runOnly: { type: "rule", values: only } });
    return result.violations.map(
      (found) => `${found.id}: ${found.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    );
  }, rules);
}

test.describe("accessibility", () => {
  for (const phone of [false, true]) {
    test(`a skip link is the first stop, and the unverified banner is in a landmark (${phone ? "phone" : "desktop"})`, async ({
      browser,
      request,
    }) => {
      const writer = await registerUser(request);
      const { context, page } = await signedInPage(browser, request, writer, phone, "light", true);
      await page.goto("/posts");
      await expect(page.getByText("Your account is not verified.")).toBeVisible({ timeout: 15_000 });
      expect(await axeFindings(page, ["region"])).toEqual([]);
      await page.keyboard.press("Tab");
      const skip = page.getByRole("link", { name: "Skip to content" });
      await expect(skip).toBeFocused();
      await expect(skip).toBeInViewport();
      await page.keyboard.press("Enter");
      await expect(page.locator("main")).toBeFocused();
      await context.close();
    });
  }
});

test("the report dialog is a dialog holding a form, not a form called a dialog", async ({ browser, request }) => {
  const admin = await adminSession(request);
  const tag = uniqueTag();
  await request.post("/api/category", { data: { title: `Rep ${tag}` }, headers: auth(admin) });
  const post = await (
    await request.post("/api/posts", {
      data: { title: `Reported ${tag}`, description: "<p>Text</p>", category: `Rep ${tag}`, isFeatured: "false" },
      headers: auth(admin),
    })
  ).json();
  await request.post("/api/comments", { data: { postId: post.id, description: `Odd ${tag}` }, headers: auth(admin) });
  const reader = await registerUser(request);
  const { context, page } = await signedInPage(browser, request, reader);
  await page.goto(`/posts/${post.id}`);
  await page.getByRole("button", { name: "Report this comment" }).click({ timeout: 15_000 });
  const dialog = page.getByRole("dialog", { name: "Report this comment" });
  await expect(dialog).toBeVisible();
  expect(await dialog.evaluate((element) => element.tagName)).not.toBe("FORM");
  await expect(dialog.locator("form")).toHaveCount(1);
  await context.close();
});

test.describe("confirmations and defaults", () => {
  test("deleting one's own comment asks first", async ({ browser, request }) => {
    const writer = await registerUser(request);
    const admin = await adminSession(request);
    const tag = uniqueTag();
    await request.post("/api/category", { data: { title: `Ask ${tag}` }, headers: auth(admin) });
    const post = await (
      await request.post("/api/posts", {
        data: { title: `Asked ${tag}`, description: "<p>Text</p>", category: `Ask ${tag}`, isFeatured: "false" },
        headers: auth(admin),
      })
    ).json();
    await request.post("/api/comments", {
      data: { postId: post.id, description: "Kept unless sure" },
      headers: auth(writer),
    });
    const { context, page } = await signedInPage(browser, request, writer);
    await page.goto(`/posts/${post.id}`);
    const asked: string[] = [];
    page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole("button", { name: "Delete comment" }).click();
    await expect.poll(() => asked).toEqual(["Delete this comment?"]);
    await expect(page.getByText("Kept unless sure")).toBeVisible();
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Delete comment" }).click();
    await expect(page.getByText("Kept unless sure")).toBeHidden();
    await context.close();
  });

  test("closing an account keeps one's published posts unless one unticks it", async ({ browser, request }) => {
    const writer = await registerUser(request);
    const { context, page } = await signedInPage(browser, request, writer);
    await page.goto("/settings/account");
    const section = page.getByRole("region", { name: "Close your account" });
    await expect(section.getByLabel("Keep my published posts on the site, under “A former member”")).toBeChecked({
      timeout: 15_000,
    });
    await context.close();
  });
});

test.describe("refusal states", () => {
  test("a person one blocked is offered Unblock, not Follow, and a follow by the API says why", async ({
    browser,
    request,
  }) => {
    const reader = await registerUser(request);
    const other = await registerUser(request, { firstName: "Blocked" });
    expect((await request.post(`/api/users/block/${other.id}`, { headers: auth(reader) })).status()).toBe(200);
    const { context, page } = await signedInPage(browser, request, reader);
    await page.goto(`/profile/${other.id}`);
    await expect(page.getByRole("button", { name: "Unblock" })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText("You blocked Blocked Tester: unblock them to follow.")).toBeVisible();
    await expect(page.getByRole("button", { name: /^Follow/ })).toHaveCount(0);
    const refused = await request.put("/api/users/follow", { data: { followId: other.id }, headers: auth(reader) });
    expect((await refused.json()).message).toBe(
      "You cannot follow this person because you blocked them. Unblock them first.",
    );
    await page.getByRole("button", { name: "Unblock" }).click();
    await expect(page.getByRole("button", { name: /^Follow/ })).toBeVisible();
    await context.close();
  });

  test("an unknown address answers 404 with a heading and a way home", async ({ page }) => {
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    await page.keyboard.press("Shift");
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Go Home" })).toBeVisible();
  });
});

test.describe("stats", () => {
  test("the chart's legend has a swatch for each line, and the lines show in light and dark", async ({
    browser,
    request,
  }) => {
    const admin = await adminSession(request);
    const tag = uniqueTag();
    await request.post("/api/category", { data: { title: `Chart ${tag}` }, headers: auth(admin) });
    const writer = await registerUser(request);
    const post = await (
      await request.post("/api/posts", {
        data: { title: `Charted ${tag}`, description: "<p>Text</p>", category: `Chart ${tag}`, isFeatured: "false" },
        headers: auth(writer),
      })
    ).json();
    const reader = await browser.newPage();
    await reader.goto(`/posts/${post.id}`, { referer: "https://news.example/" });
    await reader.close();
    for (const mode of ["light", "dark"] as const) {
      const { context, page } = await signedInPage(browser, request, writer, false, mode);
      await page.goto("/stats");
      const readers = page.getByRole("region", { name: "Readers" });
      await expect(readers.locator("svg.recharts-surface path.recharts-curve")).toHaveCount(2, { timeout: 20_000 });
      await shot(page, `stats-${mode}`);
      const look = await readers.evaluate((region) => {
        const swatches = [...region.querySelectorAll(".recharts-legend-wrapper span")]
          .filter((span) => span.children.length === 0 && !span.textContent)
          .map((span) => getComputedStyle(span).backgroundColor);
        const strokes = [...region.querySelectorAll("path.recharts-curve")].map(
          (path) => getComputedStyle(path).stroke,
        );
        const body = getComputedStyle(document.body).backgroundColor;
        const page = body === "rgba(0, 0, 0, 0)" ? getComputedStyle(document.documentElement).backgroundColor : body;
        return { swatches, strokes, page };
      });
      // A swatch per line, coloured as its line is.
      expect(look.swatches).toHaveLength(2);
      for (const swatch of look.swatches) expect(swatch).not.toMatch(/rgba\(0, 0, 0, 0\)|transparent/);
      expect(look.swatches).toEqual(look.strokes);
      // Each line stands out from the page: a contrast of 3:1 at least.
      for (const stroke of look.strokes)
        expect(contrast(stroke, look.page), `${mode} ${stroke}`).toBeGreaterThanOrEqual(3);
      await context.close();
    }
  });
});

/** WCAG's contrast ratio of two CSS rgb() colours. */
function contrast(a: string, b: string) {
  const luminance = (color: string) => {
    const [r, g, bl] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((part) => {
      const channel = Number(part) / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}
