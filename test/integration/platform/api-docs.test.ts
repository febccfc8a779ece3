import Fastify from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { registerDocs } from "../../../src/server/plugins/docs.ts";
import { countsAgainstLimit, needsSignIn } from "../../../src/server/plugins/route-marks.ts";
import { buildTestApp } from "../../support/app.ts";
import { pgliteTarget } from "../../support/databases.ts";

let app: App;
beforeAll(async () => {
  app = await buildTestApp(await pgliteTarget.open());
});
afterAll(() => app.close());

it("documents every call of the spec and the brief with its schemas", async () => {
  const document = (await app.inject({ method: "GET", url: "/api/openapi.json" })).json();
  expect(document).toEqual((await app.inject({ method: "GET", url: "/api/docs/json" })).json());
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
      "PUT /api/users",
      "PUT /api/users/password",
      "GET /api/users/{id}",
      "GET /api/users",
      "PUT /api/users/block-user/{id}",
      "PUT /api/users/unblock-user/{id}",
      "PUT /api/users/profilephoto-upload",
      "POST /api/users/forget-password-token",
      "PUT /api/users/reset-password",
      "POST /api/users/generate-verify-email-token",
      "PUT /api/users/verify-account",
      "POST /api/email",
      "GET /api/auth/siwe/nonce",
      "POST /api/auth/siwe/verify",
      "POST /api/users/wallet",
      "GET /api/health",
      "GET /api/config",
      "POST /api/category",
      "GET /api/category",
      "GET /api/category/{id}",
      "PUT /api/category/{id}",
      "DELETE /api/category/{id}",
      "POST /api/posts",
      "GET /api/posts",
      "GET /api/posts/{id}",
      "GET /api/posts/{id}/comments",
      "PUT /api/posts/{id}",
      "DELETE /api/posts/{id}",
      "PUT /api/posts/likes",
      "PUT /api/posts/dislikes",
      "POST /api/comments",
      "GET /api/comments/{id}",
      "PUT /api/comments/{id}",
      "DELETE /api/comments/{id}",
      "GET /api/payments",
      "POST /api/users/tip/{id}",
      "GET /api/users/rewards/{id}",
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
    "POST /api/users/block/{id}",
    "POST /api/users/mute/{id}",
    "POST /api/exports",
    "POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver",
    "POST /api/webhooks/{id}/test",
  ]);
  const missing = Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ["post", "put", "patch"].includes(method))
      .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation }))
      .filter(({ name, operation }) => !bodiless.has(name) && !operation.requestBody),
  );
  expect(missing.map(({ name }) => name)).toEqual([]);

  const createPost = paths["/api/posts"]?.post?.requestBody?.content["multipart/form-data"]?.schema;
  expect(createPost?.properties).toMatchObject({
    title: { type: "string" },
    image: { type: "string", format: "binary" },
  });
  const photo = paths["/api/users/profilephoto-upload"]?.put?.requestBody?.content["multipart/form-data"]?.schema;
  expect(photo?.properties).toMatchObject({ image: { type: "string", format: "binary" } });
});

type Answer = { content?: Record<string, { schema: { $ref?: string } }> };
type Operation = {
  operationId?: string;
  tags?: string[];
  summary?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, Answer>;
};
const operationsOf = (document: { paths: Record<string, Record<string, Operation>> }) =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      name: `${method.toUpperCase()} ${path}`,
      path,
      operation,
    })),
  );

it("names every operation once, tags it with a described capability and summarises it", async () => {
  const document = (await app.inject({ method: "GET", url: "/api/openapi.json" })).json();
  const operations = operationsOf(document);
  expect(operations.length).toBeGreaterThan(100);
  expect(
    operations.filter(({ operation }) => !/^[a-z][A-Za-z]+$/.test(operation.operationId ?? "")).map((o) => o.name),
  ).toEqual([]);
  const ids = operations.map(({ operation }) => operation.operationId);
  expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  const described = new Set(
    document.tags.filter((tag: { description?: string }) => tag.description).map((tag: { name: string }) => tag.name),
  );
  expect(operations.filter(({ operation }) => !described.has(operation.tags?.[0])).map((o) => o.name)).toEqual([]);
  expect(operations.filter(({ operation }) => !operation.summary).map((o) => o.name)).toEqual([]);
  expect(Object.keys(document.paths).filter((path) => path.endsWith("/"))).toEqual([]);
  expect(document.servers).toEqual([{ url: "http://penchain.test", description: "This site" }]);
  expect(document.info.license).toEqual({ name: "MIT", identifier: "MIT" });
  expect(operations.map(({ operation }) => operation.operationId)).toEqual(
    expect.arrayContaining(["listPosts", "getPost", "createPost", "likePost", "logIn", "register"]),
  );
});

it("derives each operation's security and 4xx answers from the route's guards, limits and path", async () => {
  const document = (await app.inject({ method: "GET", url: "/api/openapi.json" })).json();
  const byName = new Map(operationsOf(document).map(({ name, operation }) => [name, operation]));
  const errorRef = { "application/json": { schema: { $ref: "#/components/schemas/ApiError" } } };
  const drafts = byName.get("GET /api/posts/drafts");
  // A signed-in read a posts:read token may make too.
  expect(drafts?.security).toEqual([{ session: [] }, { token: ["posts:read"] }]);
  expect(Object.keys(drafts?.responses ?? {})).toEqual(expect.arrayContaining(["200", "400", "401", "403"]));
  expect(drafts?.responses["401"]?.content).toEqual(errorRef);
  // Public, identifying the caller if signed in, with an id in its path.
  const post = byName.get("GET /api/posts/{id}");
  expect(post?.security).toEqual([{}, { session: [] }, { token: ["posts:read"] }]);
  expect(Object.keys(post?.responses ?? {})).toEqual(expect.arrayContaining(["404", "400"]));
  expect(Object.keys(post?.responses ?? {})).not.toContain("401");
  // Rate-limited, public, no id.
  const login = byName.get("POST /api/users/login");
  expect(login?.security).toEqual([{}]);
  expect(Object.keys(login?.responses ?? {})).toEqual(expect.arrayContaining(["400", "429"]));
  expect(Object.keys(login?.responses ?? {})).not.toContain("404");
  expect(byName.get("GET /api/health")?.security).toEqual([{}]);
  expect(byName.get("PUT /api/users/block-user/{id}")?.security).toEqual([{ session: [] }, { token: ["admin"] }]);
  // Signed in, and no token may call it.
  expect(byName.get("PUT /api/users/follow")?.security).toEqual([{ session: [] }]);
  expect(document.components.schemas.ApiError.required).toEqual(["message"]);
});

it("answers an error in the documented shape", async () => {
  const document = (await app.inject({ method: "GET", url: "/api/openapi.json" })).json();
  const shape = document.components.schemas.ApiError;
  const answer = await app.inject({ method: "GET", url: "/api/posts/drafts" });
  expect(answer.statusCode).toBe(401);
  const body = answer.json();
  expect(Object.keys(body).every((key) => key in shape.properties)).toBe(true);
  expect(typeof body.message).toBe("string");
  const invalid = (await app.inject({ method: "POST", url: "/api/users/login", payload: { email: 1 } })).json();
  expect(Object.keys(invalid).sort()).toEqual(Object.keys(shape.properties).sort());
  expect(Object.keys(invalid.issues[0]).sort()).toEqual(shape.properties.issues.items.required.sort());
});

it("asks a route marked with a scope for a session or a token with that scope", async () => {
  const bare = Fastify();
  bare.decorate("config", { publicUrl: "https://site.example" } as App["config"]);
  bare.decorate("identifyUser", async () => {});
  await registerDocs(bare);
  const guard = needsSignIn(async () => {});
  const schema = { tags: ["posts"], summary: "Publish" };
  bare.post(
    "/api/posts/:id/publish",
    { schema, config: { scope: "posts:write" }, preHandler: guard },
    async () => ({}),
  );
  bare.get("/api/posts/drafts", { schema, preHandler: [guard, countsAgainstLimit(async () => {})] }, async () => ({}));
  await bare.ready();
  const document = (await bare.inject({ method: "GET", url: "/api/openapi.json" })).json();
  const publish = document.paths["/api/posts/{id}/publish"].post;
  expect(publish.security).toEqual([{ session: [] }, { token: ["posts:write"] }]);
  expect(Object.keys(publish.responses).sort()).toEqual(["200", "400", "401", "403", "404"]);
  expect(document.components.securitySchemes.token.bearerFormat).toBe("pcn_…");
  const drafts = document.paths["/api/posts/drafts"].get;
  expect(drafts.security).toEqual([{ session: [] }]);
  expect(Object.keys(drafts.responses).sort()).toEqual(["200", "400", "401", "403", "429"]);
  await bare.close();
});
