import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet from "helmet";

/**
 * What a built script, stylesheet or font under /assets/ needs of them. The rest (the content security policy, framing,
 * the opener and agent-cluster policies, HSTS, which every page sends) only means something on a document, and a
 * writer's first screen fetches some twenty such files (docs/decisions/007). A module script without a referrer
 * policy of its own makes its imports under its page's, which every page sends.
 */
const ASSET_HEADERS = new Set(["x-content-type-options", "cross-origin-resource-policy"]);

/**
 * Helmet's security headers. They are the same for every response, so helmet runs once at start-up against a
 * stand-in response and each request copies the result, rather than rebuilding the policy per request. Built assets
 * get only what applies to them (above).
 */
export function registerSecurityHeaders(app: FastifyInstance, publicRpcUrl: string) {
  const headers: Record<string, string> = {};
  const collect = {
    setHeader: (name: string, value: string | number | string[]) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet({
    contentSecurityPolicy: {
      directives: {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:", "https:"],
        "font-src": ["'self'", "data:"],
        // Wallets talk to the chain's RPC and to wallet services from the browser.
        "connect-src": ["'self'", new URL(publicRpcUrl).origin, "https:", "wss:"],
        "frame-src": ["'self'", "https:"],
        "upgrade-insecure-requests": null,
      },
    },
    crossOriginEmbedderPolicy: false,
  })({} as IncomingMessage, collect as unknown as ServerResponse, () => {});
  if (Object.keys(headers).length < 5) throw new Error("helmet produced no headers");
  const assetHeaders = Object.fromEntries(Object.entries(headers).filter(([name]) => ASSET_HEADERS.has(name)));
  app.addHook("onRequest", (request, reply, done) => {
    reply.headers(request.url.startsWith("/assets/") ? assetHeaders : headers);
    done();
  });
}
