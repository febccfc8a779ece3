import { Create, type Person } from "@fedify/fedify/vocab";
import { expect, test } from "@playwright/test";
import { startPeer } from "../support/fediverse.ts";
import { logIn, registerUser } from "./fixtures/accounts.ts";
import { adminSession } from "./fixtures/admin.ts";
import { seriousViolations } from "./fixtures/axe.ts";
import { auth, shot, uniqueTag } from "./fixtures/screens.ts";
import { baseURL } from "./playwright.config.ts";

// axe-core is added to the page as a script, which the site's Content-Security-Policy would refuse.
test.use({ bypassCSP: true });

test("a first reply from the fediverse waits for its author, who approves it, and it shows under the post", async ({
  page,
  request,
}) => {
  const author = await registerUser(request, { firstName: "Federica" });
  const admin = await adminSession(request);
  const category = `Fediverse ${uniqueTag()}`;
  await request.post("/api/category", { data: { title: category }, headers: auth(admin) });
  const title = `Hello fediverse ${uniqueTag()}`;
  const created = await request.post("/api/posts", {
    data: { title, description: "<p>Reply to me from anywhere.</p>", category, isFeatured: "false" },
    headers: auth(author),
  });
  expect(created.status()).toBe(201);
  const post = (await created.json()) as { id: string };

  // A real ActivityPub server on loopback replies to the post, signed with its own key.
  const peer = await startPeer("alice");
  try {
    const actor = (await peer.lookup(`${baseURL}/ap/actors/${author.id}`)) as Person;
    // A retried run registers the name again: `federica-tester-2`.
    expect(actor?.preferredUsername).toMatch(/^federica-tester(-\d+)?$/);
    const note = peer.note(new URL(`${baseURL}/posts/${post.id}`), "<p>Greetings from <b>elsewhere</b>!</p>", "e2e");
    await peer.send(
      actor,
      new Create({ id: new URL(`${peer.origin}/creates/e2e`), actor: new URL(peer.actorUri()), object: note }),
    );

    await logIn(page, author.email);
    await page.goto("/notifications");
    const waiting = page.getByRole("region", { name: "Replies waiting for you" });
    await expect(waiting.getByText("Greetings from elsewhere!")).toBeVisible({ timeout: 15_000 });
    await expect(waiting.getByRole("link", { name: title })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "federation-pending");
    await waiting.getByRole("button", { name: "Approve" }).click();
    await expect(waiting).toBeHidden();

    await page.goto(`/posts/${post.id}`);
    const fediverse = page.getByRole("region", { name: "From the fediverse" });
    await expect(fediverse.getByText("Greetings from elsewhere!")).toBeVisible({ timeout: 15_000 });
    await expect(fediverse.getByText("Alice of the Fediverse")).toBeVisible();
    await expect(fediverse.getByText(`@alice@${new URL(peer.origin).host}`)).toBeVisible();
    await expect(fediverse.getByText("0 likes · 0 boosts · 1 reply")).toBeVisible();
    await shot(page, "federation-reply");
  } finally {
    await peer.close();
  }
});
