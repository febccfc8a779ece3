import type { FastifyInstance } from "fastify";
import type { Scope } from "#shared/scopes.ts";
import { HttpError } from "../http-error.ts";
import { createTokenAuth, type TokenCaller } from "../services/tokens/tokens.ts";
import { rateLimitHeaders } from "./rate-limits.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The scope a personal access token needs to call this route; a route naming none refuses every token. */
    scope?: Scope;
    /** Any valid token may call it (the MCP endpoint, whose tools each check the token's scopes). */
    anyScope?: boolean;
  }
  interface FastifyInstance {
    /** What a token needs for `METHOD /url` as registered: a scope, "any" (MCP), or null (no token at all). */
    tokenScopeOf: (route: string) => Scope | "any" | null | undefined;
  }
  interface FastifyRequest {
    /** The personal access token this request came with (`Authorization: Bearer pcn_…`), once checked. */
    apiToken: TokenCaller | null;
  }
}

/** The name the RateLimit fields give each token's own allowance. */
const POLICY = "token";

export const TOKEN_NOT_ALLOWED_HERE = "A token cannot do this: sign in to the site instead.";
export const scopeMissing = (scope: Scope) => `This token does not have the ${scope} scope.`;

/**
 * Personal access tokens, checked before anything else a route does: the token and its owner afresh (revoked,
 * expired, blocked, suspended, closing, a staff scope whose role is gone), its own rate limit advertised on every
 * answer, then the route's `config.scope` (none: refused). The owner becomes `request.user`, so every guard after
 * this one judges the owner as it would a session.
 */
export function registerTokenAuth(app: FastifyInstance) {
  app.decorateRequest("apiToken", null);
  const scopes = new Map<string, Scope | "any" | null>();
  app.addHook("onRoute", (route) => {
    const needs = route.config?.anyScope ? "any" : (route.config?.scope ?? null);
    for (const method of [route.method].flat()) scopes.set(`${method} ${route.url}`, needs);
  });
  app.decorate("tokenScopeOf", (route: string) => scopes.get(route));
  const tokens = createTokenAuth(app.db, app.log);
  app.addHook("onRequest", async (request, reply) => {
    const header = request.headers.authorization;
    if (!header) return;
    const secret = /^Bearer\s+(pcn_\S*)$/i.exec(header)?.[1];
    // A path no route serves answers 404 as it would to anyone.
    if (!secret || !request.routeOptions.url) return;
    const { token, user } = await tokens.authenticate(secret);
    reply.headers(rateLimitHeaders(POLICY, await app.limiter.take("apiTokens", token.id, POLICY)));
    const { scope, anyScope } = request.routeOptions.config;
    if (!anyScope) {
      if (!scope) throw new HttpError(403, TOKEN_NOT_ALLOWED_HERE);
      if (!token.scopes.includes(scope)) throw new HttpError(403, scopeMissing(scope));
    }
    request.user = user;
    request.apiToken = token;
  });
}
