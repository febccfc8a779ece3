import type { FastifyPluginAsync } from "fastify";
import { HttpError } from "../../http-error.ts";

export const MCP_NEEDS_TOKEN =
  "The MCP endpoint takes a personal access token: Authorization: Bearer pcn_… (make one under Settings, API tokens).";

/** The SDK loads with the first agent, not with every server's start. */
let sdk:
  | Promise<
      [
        typeof import("@modelcontextprotocol/sdk/server/mcp.js"),
        typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
        typeof import("./mcp-tools.ts"),
      ]
    >
  | undefined;
const loadSdk = () =>
  (sdk ??= Promise.all([
    import("@modelcontextprotocol/sdk/server/mcp.js"),
    import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
    import("./mcp-tools.ts"),
  ]));

/**
 * The MCP server for agents (docs/tokens.md), over streamable HTTP without sessions: every POST is answered by a
 * server made for it, holding only the tools its token's scopes allow. The token was checked, rate-limited and its use
 * recorded before this runs (plugins/token-auth.ts); a session is refused.
 */
export const mcpRoutes: FastifyPluginAsync = async (app) => {
  app.post("/mcp", {
    config: { anyScope: true },
    schema: { hide: true },
    handler: async (request, reply) => {
      const token = request.apiToken;
      if (!token || !request.user) throw new HttpError(401, MCP_NEEDS_TOKEN);
      const [{ McpServer }, { StreamableHTTPServerTransport }, { registerTools }] = await loadSdk();
      const server = new McpServer({ name: "penchain", version: "1" });
      registerTools(server, {
        deps: request.deps,
        user: request.user,
        scopes: token.scopes,
        hit: (name, key) => app.limiter.hit(name, key),
        log: request.log,
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      // The answer is the SDK's to write; the headers set so far (security, the token's rate limit) go with it.
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value as string | string[]);
      }
      reply.raw.on("close", () => void server.close());
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  });
  // Without sessions there is no stream to open or session to end (the transport's specification: 405).
  for (const method of ["GET", "DELETE"] as const) {
    app.route({
      method,
      url: "/mcp",
      config: { anyScope: true },
      schema: { hide: true },
      handler: async (_request, reply) =>
        reply.code(405).header("allow", "POST").send({ message: "The MCP endpoint answers POST only." }),
    });
  }
};
