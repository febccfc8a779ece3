import crypto from "node:crypto";
import { createRequire } from "node:module";
import { expect, type Page, test } from "@playwright/test";
import { ADMIN, adminSession } from "./fixtures/admin.ts";

const AXE = createRequire(import.meta.url).resolve("axe-core");

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's WCAG 2.x A and AA rules on the page as it stands; serious and critical findings only. */
async function seriousViolations(page: Page) {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (options: object) => Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run({ runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
    return result.violations;
  });
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
    );
}

test("every screen passes axe-core with no serious or critical violations", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const tag = crypto.randomBytes(3).toString("hex");
  const admin = await adminSession(request);
  const auth = { authorization: `Bearer ${admin.token}` };
  await request.post("/api/category", { data: { title: `Axe ${tag}` }, headers: auth });
  const post = await (
    await request.post("/api/posts", {
      data: { title: `Accessible ${tag}`, description: "<p>Text</p>", category: `Axe ${tag}`, isFeatured: "false" },
      headers: auth,
    })
  ).json();
  await request.post("/api/comments", { data: { postId: post.id, description: "A comment" }, headers: auth });
  const category = (await (await request.get("/api/category?limit=100")).json()).items.find(
    (item: { title: string }) => item.title === `Axe ${tag}`,
  );

  const visitorScreens = [
    "/",
    "/posts",
    `/posts/${post.id}`,
    "/login",
    "/register",
    "/password-reset-token",
    "/nowhere",
    `/search?q=accessible`,
  ];
  const memberScreens = [
    "/posts",
    `/posts/${post.id}`,
    "/create-post",
    `/profile/${admin.id}`,
    `/update-profile/${admin.id}`,
    "/upload-profile-photo",
    "/update-password",
    `/update-post/${post.id}`,
    `/search?q=accessible&category=${encodeURIComponent(`Axe ${tag}`)}`,
    "/users",
    "/add-category",
    "/category-list",
    `/update-category/${category.id}`,
    "/Settings",
    "/payments",
  ];
  const session = await (await request.post("/api/users/login", { data: ADMIN })).json();
  const found: string[] = [];
  for (const [signedIn, screens] of [
    [false, visitorScreens],
    [true, memberScreens],
  ] as const) {
    for (const mode of ["light", "dark"]) {
      // axe is injected as a script the site's CSP would refuse.
      const context = await browser.newContext({ colorScheme: mode as "light" | "dark", bypassCSP: true });
      if (signedIn)
        await context.addInitScript((value) => localStorage.setItem("userInfo", value), JSON.stringify(session));
      const page = await context.newPage();
      for (const screen of screens) {
        await page.goto(screen, { waitUntil: "networkidle" });
        await expect(page.locator("main")).not.toBeEmpty();
        await expect(page.getByRole("status").or(page.getByLabel(/^Loading/))).toHaveCount(0);
        for (const violation of await seriousViolations(page)) found.push(`${mode} ${screen}: ${violation}`);
      }
      await context.close();
    }
  }
  expect(found).toEqual([]);
});
