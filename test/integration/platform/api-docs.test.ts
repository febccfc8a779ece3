import { afterAll, beforeAll, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { buildTestApp } from "../../support/app.ts";
import { pgliteTarget } from "../../support/databases.ts";

let app: App;
beforeAll(async () => {
  app = await buildTestApp(await pgliteTarget.open());
});
afterAll(() => app.close());

it("documents every call of the spec and the brief with its schemas", async () => {
  const document = (await app.inject({ method: "GET", url: "/api/docs/json" })).json();
  const operations = Object.entries(document.paths as Record<string, Record<string, { responses?: object }>>).flatMap(
    ([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
  );
  expect(operations).toEqual(
    expect.arrayContaining([
      "POST /api/users/register",
      "POST /api/users/login",
      "GET /api/users/profile/{id}",
      "PUT /api/users/likes/{id}",
      "PUT /api/users/follow",
      "PUT /api/users/unfollow",
      "PUT /api/users/",
      "PUT /api/users/password",
      "GET /api/users/{id}",
      "GET /api/users/",
      "PUT /api/users/block-user/{id}",
      "PUT /api/users/unblock-user/{id}",
      "PUT /api/users/profilephoto-upload",
      "POST /api/users/forget-password-token",
      "PUT /api/users/reset-password",
      "POST /api/users/generate-verify-email-token",
      "PUT /api/users/verify-account",
      "POST /api/email/",
      "GET /api/auth/siwe/nonce",
      "POST /api/auth/siwe/verify",
      "POST /api/users/wallet",
      "GET /api/health",
      "GET /api/config",
      "POST /api/category/",
      "GET /api/category/",
      "GET /api/category/{id}",
      "PUT /api/category/{id}",
      "DELETE /api/category/{id}",
      "POST /api/posts/",
      "GET /api/posts/",
      "GET /api/posts/{id}",
      "GET /api/posts/{id}/comments",
      "PUT /api/posts/{id}",
      "DELETE /api/posts/{id}",
      "PUT /api/posts/likes",
      "PUT /api/posts/dislikes",
      "POST /api/comments/",
      "GET /api/comments/{id}",
      "PUT /api/comments/{id}",
      "DELETE /api/comments/{id}",
      "GET /api/payments",
      "POST /api/users/{id}/tip",
      "GET /api/users/{id}/rewards",
    ]),
  );
  const register = document.paths["/api/users/register"].post;
  expect(register.requestBody.content["application/json"].schema.required).toEqual(
    expect.arrayContaining(["firstName", "lastName", "email", "password", "walletAddress"]),
  );
  expect(Object.keys(register.responses)).toContain("201");
});

it("describes the body of every call that takes one, multipart forms included", async () => {
  const document = (await app.inject({ method: "GET", url: "/api/docs/json" })).json();
  type Operation = { requestBody?: { content: Record<string, { schema: { properties?: object } }> } };
  const paths = document.paths as Record<string, Record<string, Operation>>;
  // Calls whose whole input is the path and the caller's session.
  const bodiless = new Set([
    "POST /api/users/logout",
    "POST /api/users/generate-verify-email-token",
    "PUT /api/users/block-user/{id}",
    "PUT /api/users/unblock-user/{id}",
    "PUT /api/users/likes/{id}",
    "PUT /api/users/reward/{id}",
    "DELETE /api/posts/{id}",
    "DELETE /api/comments/{id}",
    "DELETE /api/category/{id}",
    "PUT /api/federation/replies/{id}/approve",
    "POST /api/comments/{id}/approve",
    "POST /api/comments/{id}/decline",
    "POST /api/users/{id}/block",
    "POST /api/users/{id}/mute",
    "POST /api/exports",
  ]);
  const missing = Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ["post", "put", "patch"].includes(method))
      .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation }))
      .filter(({ name, operation }) => !bodiless.has(name) && !operation.requestBody),
  );
  expect(missing.map(({ name }) => name)).toEqual([]);

  const createPost = paths["/api/posts/"]?.post?.requestBody?.content["multipart/form-data"]?.schema;
  expect(createPost?.properties).toMatchObject({
    title: { type: "string" },
    image: { type: "string", format: "binary" },
  });
  const photo = paths["/api/users/profilephoto-upload"]?.put?.requestBody?.content["multipart/form-data"]?.schema;
  expect(photo?.properties).toMatchObject({ image: { type: "string", format: "binary" } });
});
