import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../src/server/app.ts";
import { buildTestApp } from "../support/app.ts";
import { createCategory, createPost } from "../support/content.ts";
import { pgliteTarget } from "../support/databases.ts";
import { makeAdmin, signUp } from "../support/users.ts";

const CLIENT_DIR = path.resolve(import.meta.dirname, "../../dist/client");
type Session = Awaited<ReturnType<typeof signUp>>;

describe("reader pages rendered on the server", () => {
  let app: App;
  let author: Session;
  let post: { id: string; title: string };
  beforeAll(async () => {
    app = await buildTestApp(await pgliteTarget.open(), { clientDir: CLIENT_DIR });
    const admin = await signUp(app);
    await makeAdmin(app, admin.id);
    author = await signUp(app, { firstName: "Grace", lastName: "Hopper" });
    await createCategory(app, admin, "Compilers & <Tools>");
    post = await createPost(app, author, "Compilers & <Tools>", {
      title: 'Nanoseconds "explained"',
      description: "<p>A nanosecond is <strong>30 cm</strong> of wire &amp; more.</p><p>Second paragraph.</p>",
    });
  });
  afterAll(() => app.close());

  it("renders a post's text, head and data in the first response", async () => {
    const response = await app.inject({ method: "GET", url: `/posts/${post.id}` });
    fs.writeFileSync("/tmp/ssr/post.html", response.body);
    expect(response.statusCode).toBe(200);
  });
});
