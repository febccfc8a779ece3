import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { buildTestApp } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

interface Operation {
  method: string;
  path: string;
  query: string[];
  bodyFields: string[];
  multipart: boolean;
}

/** Every operation of the OpenAPI document, with its query parameters and top-level body fields. */
function operationsOf(document: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, spec]) => {
      const parameters = (spec.parameters ?? []) as { in: string; name: string }[];
      const content = ((spec.requestBody as { content?: Record<string, { schema?: { properties?: object } }> })
        ?.content ?? {}) as Record<string, { schema?: { properties?: object } }>;
      const json = content["application/json"]?.schema?.properties ?? {};
      return {
        method: method.toUpperCase(),
        path,
        query: parameters.filter((parameter) => parameter.in === "query").map((parameter) => parameter.name),
        bodyFields: Object.keys(json),
        multipart: "multipart/form-data" in content || Boolean(spec.consumes),
      };
    }),
  );
}

const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const JUNK_IDS = ["x", "%00", "1e999", "00000000-0000-0000-0000-00000000000g", "-1", "a".repeat(300), "%E2%80%AE"];
const JUNK_QUERY = [
  "",
  "x",
  "-1",
  "1e309",
  "99999999999999999999",
  "%00",
  "a%00b",
  "%ED%A0%80",
  "[]",
  cursor(["x", "y", "z"]),
  cursor([true, "294277-01-01T00:00:00.000000Z", crypto.randomUUID()]),
  cursor(["2024-13-01T00:00:00.000000Z", crypto.randomUUID()]),
  "a".repeat(5000),
];
const deep = (levels: number): unknown => (levels === 0 ? "x" : { a: deep(levels - 1) });
const JUNK_VALUES: unknown[] = [
  null,
  0,
  -1,
  1e308,
  true,
  [],
  {},
  [1, 2, 3],
  "",
  " ",
  "x\u0000y",
  "x\ud800y",
  "\u202e",
  "a".repeat(100_000),
  "0x",
  `0x${"f".repeat(64)}`,
  "Victim <v@x.com>",
  "a@x.com\r\nBcc: b@y.com",
  crypto.randomUUID(),
  deep(50),
];
const JUNK_BODIES: unknown[] = [null, [], "text", 12, {}, { __proto__: { isAdmin: true } }, deep(200)];

describe.each(databaseTargets)("generated bad input to every documented route on $name", (target) => {
  let app: App;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let realIds: string[];
  beforeAll(async () => {
    app = await buildTestApp(await target.open());
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
    const post = await createPost(app, admin, (await createCategory(app, admin)).title);
    realIds = [admin.id, post.id];
  }, 60_000);
  afterAll(() => app.close());

  it("never answers 5xx", { timeout: 300_000 }, async () => {
    const document = (await app.inject({ method: "GET", url: "/api/docs/json" })).json();
    // The health check answers 503 on purpose when the chain is down (there is none here).
    const operations = operationsOf(document).filter((operation) => operation.path !== "/api/health");
    expect(operations.length).toBeGreaterThan(40);
    const failures: string[] = [];
    let sent = 0;

    async function send(operation: Operation, url: string, payload: unknown, signedIn: boolean, raw = false) {
      // Logging the fuzzing admin out would leave the rest of the run anonymous.
      if (signedIn && operation.path === "/api/users/logout") return;
      const headers: Record<string, string> = signedIn ? bearer(admin) : {};
      if (payload !== undefined) headers["content-type"] = "application/json";
      const response = await app.inject({
        method: operation.method as "GET",
        url,
        headers,
        ...(payload === undefined ? {} : { payload: raw ? (payload as string) : JSON.stringify(payload) }),
      });
      sent++;
      if (response.statusCode >= 500) {
        failures.push(
          `${operation.method} ${url.slice(0, 120)} ${JSON.stringify(payload)?.slice(0, 120)} → ${response.statusCode} ${response.body.slice(0, 200)}`,
        );
      }
    }

    for (const operation of operations) {
      const ids = operation.path.includes("{") ? [...JUNK_IDS, ...realIds] : [""];
      for (const signedIn of [true, false]) {
        for (const id of ids) {
          const path = operation.path.replace(/\{[^}]+\}/g, id);
          await send(operation, path, undefined, signedIn);
          for (const name of operation.query) {
            for (const value of JUNK_QUERY) await send(operation, `${path}?${name}=${value}`, undefined, signedIn);
          }
          if (operation.method === "GET" || operation.method === "DELETE") continue;
          for (const body of JUNK_BODIES) await send(operation, path, body, signedIn);
          await send(operation, path, '{"title": "unterminated', signedIn, true);
        }
        // Field by field, on a real id where the route takes one, so the body reaches the service.
        const path = operation.path.replace(/\{[^}]+\}/g, realIds[1] as string);
        for (const field of operation.bodyFields) {
          for (const value of JUNK_VALUES) await send(operation, path, { [field]: value }, signedIn);
        }
        if (operation.multipart) {
          const boundary = "----fuzz";
          const body = `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nx\u0000y\r\n--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nnot a png\r\n--${boundary}--\r\n`;
          const response = await app.inject({
            method: operation.method as "POST",
            url: path,
            headers: {
              ...(signedIn ? bearer(admin) : {}),
              "content-type": `multipart/form-data; boundary=${boundary}`,
            },
            payload: body,
          });
          if (response.statusCode >= 500) failures.push(`${operation.method} ${path} multipart → ${response.body}`);
        }
      }
    }
    expect(sent).toBeGreaterThan(2000);
    expect(failures).toEqual([]);
  });
});
