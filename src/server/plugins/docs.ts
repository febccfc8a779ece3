import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance, RouteOptions } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { OPERATION_IDS, TAGS } from "./operations.ts";
import { isRateLimit, isSignInGuard } from "./route-marks.ts";

/** Where the document is served for generators; /api/docs/json serves the same for the browsable docs. */
export const OPENAPI_PATH = "/api/openapi.json";

const ERROR_REF = "#/components/schemas/ApiError";
/** The shape of plugins/error-handler.ts's answers (`#shared/schemas/error.ts`); a test holds them together. */
const API_ERROR = {
  type: "object",
  required: ["message"],
  properties: {
    message: { type: "string", description: "What went wrong, in words a person can read." },
    issues: {
      type: "array",
      description: "Each invalid field, when the input was refused.",
      items: {
        type: "object",
        required: ["path", "message"],
        properties: { path: { type: "string" }, message: { type: "string" } },
      },
    },
  },
};

/** The 4xx answers a route can give, derived from what it runs (its guards, limits and path). */
const ANSWERS = {
  400: "The input was refused: a field is invalid (see `issues`) or holds text no field can hold.",
  401: "No session or token, or one that has ended.",
  403: "The caller may not do this: the account is blocked or lacks the role, or the token lacks the scope.",
  404: "Nothing with that id, or nothing the caller may see.",
  429: "Too many requests; `Retry-After` says how many seconds to wait.",
} as const;

const hooksOf = (route: RouteOptions): unknown[] =>
  ([route.onRequest, route.preParsing, route.preValidation, route.preHandler] as unknown[]).flatMap((hooks) =>
    hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks],
  );

/** `/api/posts/:id` as the document writes it: `/api/posts/{id}`, without the trailing slash Fastify also serves. */
export const documentedPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, "{$1}").replace(/(.)\/$/, "$1") || "/";

interface DocumentParts {
  paths?: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
}

/** Every 4xx answer names the one `ApiError` schema, so a client has one error type rather than 118 copies. */
function shareTheErrorShape(document: DocumentParts) {
  document.components = { ...document.components, schemas: { ...document.components?.schemas, ApiError: API_ERROR } };
  // Declared only once a route takes tokens (`config.scope`), as an unused scheme would tell clients otherwise.
  if (!JSON.stringify(document.paths ?? {}).includes('"token":[')) delete document.components.securitySchemes?.token;
  for (const operations of Object.values(document.paths ?? {}))
    for (const operation of Object.values(operations))
      for (const [status, answer] of Object.entries(operation.responses ?? {}))
        if (/^4\d\d$/.test(status) && answer.content?.["application/json"])
          answer.content = { "application/json": { schema: { $ref: ERROR_REF } } };
}

interface RouteScope {
  scope?: string;
}

/**
 * The OpenAPI document built from the routes: zod schemas, then what every route's options say about it (an
 * operationId from operations.ts, who may call it, its 4xx answers), so no route repeats any of it.
 */
export async function registerDocs(app: FastifyInstance) {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Penchain API",
        description:
          "Posts, accounts and on-chain verified featured posts. How to sign in, page, and read errors: docs/api.md.",
        version: "1",
        license: { name: "MIT", identifier: "MIT" },
      },
      servers: [{ url: app.config.publicUrl, description: "This site" }],
      tags: TAGS,
      components: {
        securitySchemes: {
          session: {
            type: "http",
            scheme: "bearer",
            bearerFormat: "JWT",
            description: "The `token` of `POST /api/users/login`: everything its user may do.",
          },
          token: {
            type: "http",
            scheme: "bearer",
            bearerFormat: "pcn_…",
            description:
              "A personal access token (`pcn_…`) made on /settings/tokens: only what its scopes name and its owner may do. Scopes: posts:read, posts:write, comments:write, stats:read, subscribers:read, webhooks:write, moderation, admin.",
          },
        },
      },
    },
    transform: ({ schema, url, route, ...rest }) => {
      const transformed = jsonSchemaTransform({ schema, url, route, ...rest });
      if (!transformed.schema || transformed.schema.hide) return transformed;
      const path = documentedPath(url);
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const operationId = OPERATION_IDS[`${methods[0]} ${path}`];
      const hooks = hooksOf(route);
      const signedIn = hooks.some(isSignInGuard);
      const scope = (route.config as RouteScope | undefined)?.scope;
      const statuses = [
        400,
        ...(signedIn ? [401, 403] : []),
        ...(path.includes("{") ? [404] : []),
        ...(hooks.some(isRateLimit) ? [429] : []),
      ] as (keyof typeof ANSWERS)[];
      const response = { ...(transformed.schema.response as Record<string, unknown> | undefined) };
      for (const status of statuses) response[status] ??= { description: ANSWERS[status], ...API_ERROR };
      // A download is sent as it is, past the serialiser, so its route declares no answer for it.
      if (!Object.keys(response).some((status) => status.startsWith("2")))
        response[200] = {
          description: "The file",
          content: { [path.endsWith(".csv") ? "text/csv" : "application/zip"]: { schema: { type: "string" } } },
        };
      const signIn = [{ session: [] }, ...(scope ? [{ token: [scope] }] : [])];
      return {
        url: path,
        schema: {
          ...transformed.schema,
          ...(operationId ? { operationId } : {}),
          response,
          // `{}`: anyone may call it; an identifying route also shows a signed-in caller their own view.
          security: signedIn ? signIn : hooks.includes(app.identifyUser) ? [{}, ...signIn] : [{}],
        },
      };
    },
    transformObject: (documentObject) => {
      if (!("openapiObject" in documentObject)) return documentObject.swaggerObject;
      shareTheErrorShape(documentObject.openapiObject as DocumentParts);
      return documentObject.openapiObject;
    },
  });
  await app.register(fastifySwaggerUi, { routePrefix: "/api/docs", staticCSP: true });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header("cache-control", "no-cache").send(app.swagger()),
  );
}
