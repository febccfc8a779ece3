import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { posts } from "../../../src/server/db/schema.ts";
import { NOT_SHOWN } from "../../../src/server/services/provenance/page.ts";
import { recordRevision } from "../../../src/server/services/provenance/revisions.ts";
import { buildTestApp } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { signUp } from "../../support/users.ts";

// An author can keep editing a long post: its provenance page must not grow (nor cost) with every revision.
const REVISIONS = 40;
const PARAGRAPHS = 1400;
const body = (edit: number) =>
  Array.from({ length: PARAGRAPHS }, (_, line) => `<p>edit ${edit} line ${line}</p>`).join("");

describe.each(databaseTargets)("the provenance page of a post edited many times on $name", (target) => {
  let app: App;
  beforeAll(async () => {
    app = await buildTestApp(await target.open());
  }, 60_000);
  afterAll(() => app?.close());

  it("shows the latest revisions' diffs and bounds the rest", async () => {
    const author = await signUp(app);
    const category = (await createCategory(app, author, "Long edits")).title;
    const post = await createPost(app, author, category, { description: body(0) });
    // Each edit rewrites every line, as a hostile author would; written as an edit writes it, past the rate limit.
    for (let edit = 1; edit < REVISIONS; edit++)
      await app.deps.db.transaction(async (tx) => {
        await tx
          .update(posts)
          .set({ description: body(edit) })
          .where(eq(posts.id, post.id));
        await recordRevision(app.deps, tx, post.id);
      });

    const page = await app.inject({ url: `/posts/${post.id}/provenance` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`id="revision-${REVISIONS}"`);
    expect(page.body).toContain(`id="revision-1"`);
    expect(page.body).toContain(`<ins>+ edit ${REVISIONS - 1} line 0</ins>`);
    expect(page.body.length).toBeLessThan(4_000_000);
    expect(page.body).toContain(NOT_SHOWN);
  }, 120_000);
});
