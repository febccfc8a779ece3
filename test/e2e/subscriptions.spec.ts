import type { Browser, Page } from "@playwright/test";
import { logIn, registerUser } from "./fixtures/accounts.ts";
import { adminSession } from "./fixtures/admin.ts";
import { seriousViolations } from "./fixtures/axe.ts";
import { linkFromMail, mailSays } from "./fixtures/outbox.ts";
import { expect, test } from "./fixtures/readers.ts";
import { auth, shot, uniqueTag } from "./fixtures/screens.ts";

const PHONE = { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true };

/** axe-core's serious findings on the page as it stands, in both colour modes, and whether it fits the phone. */
async function checkScreen(browser: Browser, url: string, ready: (page: Page) => Promise<void>) {
  const found: string[] = [];
  for (const mode of ["light", "dark"] as const) {
    const context = await browser.newContext({ colorScheme: mode, bypassCSP: true, ...PHONE });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: "load" });
    await ready(page);
    for (const violation of await seriousViolations(page)) found.push(`${mode} ${url}: ${violation}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await context.close();
  }
  return found;
}

test("a visitor without an account subscribes by e-mail under a post, confirms from the mail, gets the next post and can leave", async ({
  browser,
  newReader,
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const tag = uniqueTag();
  const admin = await adminSession(request);
  const category = `Letters ${tag}`;
  await request.post("/api/category", { data: { title: category }, headers: auth(admin) });
  const writer = await registerUser(request, { firstName: "Penny" });
  const publish = async (title: string) =>
    (
      await request.post("/api/posts", {
        data: { title, description: "<p>Dear readers.</p>", category, isFeatured: "false" },
        headers: auth(writer),
      })
    ).json();
  const post = await publish(`First letter ${tag}`);

  // On a phone, the server-rendered post: the form works once typed into (the app starts at the first key).
  const visitor = await newReader(PHONE);
  await visitor.goto(`/posts/${post.id}`);
  const form = visitor.getByRole("region", { name: "Subscribe by e-mail" });
  await expect(form).toContainText("Get Penny Tester's new posts in your inbox");
  const email = `subscriber-${tag}@example.org`;
  await form.getByLabel("Your e-mail address").fill("not an address");
  await form.getByRole("button", { name: "Subscribe" }).click();
  await expect(form.getByText("Enter one e-mail address, like name@example.com")).toBeVisible();
  await form.getByLabel("Your e-mail address").fill(email);
  await form.getByRole("button", { name: "Subscribe" }).click();
  await expect(form.getByRole("status")).toHaveText(
    "Almost done: open the link we sent to your e-mail to confirm your subscription.",
  );
  await shot(visitor, "subscribe-sent");

  // The real mail's link.
  const confirm = await linkFromMail(email, "subscriptions/confirm");
  await visitor.goto(confirm);
  await expect(visitor.getByRole("status")).toHaveText(
    `Subscribed: ${email} will get Penny Tester's new posts by e-mail. Every mail has a link to stop them.`,
  );
  await shot(visitor, "subscribe-confirmed");

  // The next post comes by mail, with its link to leave.
  await publish(`Second letter ${tag}`);
  expect(await mailSays(email, `Second letter ${tag}`)).toBe(true);
  const leave = await linkFromMail(email, "subscriptions/unsubscribe/[0-9a-f-]{36}");
  await visitor.goto(leave);
  await expect(visitor.getByRole("status")).toHaveText(
    `Done: ${email} will no longer get Penny Tester's new posts by e-mail.`,
  );
  await visitor.getByRole("button", { name: "Subscribe again" }).click();
  await expect(visitor.getByRole("status")).toHaveText(
    `Subscribed again: ${email} gets Penny Tester's new posts by e-mail.`,
  );

  // The author sees the subscriber on their profile, and downloads the list.
  await logIn(page, writer.email);
  await page.goto(`/profile/${writer.id}`);
  const count = page.getByText("E-mail subscribers").locator("..");
  await expect(count).toContainText("1");
  await shot(page, "profile-subscribers");
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download subscribers (CSV)" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("subscribers.csv");
  const { readFile } = await import("node:fs/promises");
  expect(await readFile((await file.path()) as string, "utf8")).toContain(`${email},`);

  // axe-core on the post's form, the confirmation and the unsubscribe page, light and dark, on a phone.
  const found = [
    ...(await checkScreen(browser, `/posts/${post.id}`, (screen) =>
      expect(screen.getByRole("region", { name: "Subscribe by e-mail" })).toBeVisible(),
    )),
    ...(await checkScreen(browser, confirm, (screen) => expect(screen.getByRole("status")).toContainText(email))),
    ...(await checkScreen(browser, leave, (screen) =>
      expect(screen.getByRole("button", { name: "Subscribe again" })).toBeVisible(),
    )),
  ];
  expect(found).toEqual([]);
});
