import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { buildTestApp } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

describe.each(databaseTargets)("categories on $name", (target) => {
  let app: App;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let user: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    app = await buildTestApp(await target.open());
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
    user = await signUp(app);
  });
  afterAll(() => app.close());

  it("lets anyone read, with the creator's e-mail for admins only", async () => {
    const category = await createCategory(app, admin, "Ethereum");
    const publicList = await app.inject({ method: "GET", url: "/api/category" });
    expect(publicList.statusCode).toBe(200);
    const item = publicList.json().items.find((entry: { id: string }) => entry.id === category.id);
    expect(item).toMatchObject({
      title: "Ethereum",
      user: { id: admin.id, firstName: "Grace" },
      createdAt: expect.any(String),
    });
    expect(item.user.email).toBeUndefined();
    const adminView = await app.inject({ method: "GET", url: `/api/category/${category.id}`, headers: bearer(admin) });
    expect(adminView.json().user.email).toBe(admin.email);
  });

  it("lets only admins write", async () => {
    const category = await createCategory(app, admin);
    for (const [method, url] of [
      ["POST", "/api/category"],
      ["PUT", `/api/category/${category.id}`],
      ["DELETE", `/api/category/${category.id}`],
    ] as const) {
      expect(
        (
          await app.inject({
            method,
            url,
            payload: method === "DELETE" ? undefined : { title: "X" },
            headers: bearer(user),
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (await app.inject({ method, url, payload: method === "DELETE" ? undefined : { title: "X" } })).statusCode,
      ).toBe(401);
    }
  });

  it("keeps titles unique ignoring case, with 'Title is required' for blanks", async () => {
    await createCategory(app, admin, "Solidity");
    const duplicate = await app.inject({
      method: "POST",
      url: "/api/category",
      payload: { title: "  SOLIDITY " },
      headers: bearer(admin),
    });
    expect(duplicate.statusCode).toBe(409);
    const blank = await app.inject({
      method: "POST",
      url: "/api/category",
      payload: { title: "  " },
      headers: bearer(admin),
    });
    expect(blank.json()).toMatchObject({ message: "Title is required" });
    const other = await createCategory(app, admin);
    const rename = await app.inject({
      method: "PUT",
      url: `/api/category/${other.id}`,
      payload: { title: "solidity" },
      headers: bearer(admin),
    });
    expect(rename.statusCode).toBe(409);
  });

  it("renames and deletes, but refuses to delete a category in use", async () => {
    const category = await createCategory(app, admin);
    const renamed = await app.inject({
      method: "PUT",
      url: `/api/category/${category.id}`,
      payload: { title: "Renamed topic" },
      headers: bearer(admin),
    });
    expect(renamed.json().title).toBe("Renamed topic");
    await createPost(app, user, "Renamed topic");
    const refused = await app.inject({ method: "DELETE", url: `/api/category/${category.id}`, headers: bearer(admin) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe("This category is used by posts and cannot be deleted");

    const unused = await createCategory(app, admin);
    expect(
      (await app.inject({ method: "DELETE", url: `/api/category/${unused.id}`, headers: bearer(admin) })).statusCode,
    ).toBe(200);
    expect((await app.inject({ method: "GET", url: `/api/category/${unused.id}` })).statusCode).toBe(404);
  });
});
