import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Scope } from "#shared/scopes.ts";
import type { App } from "../../../src/server/app.ts";
import { apiTokens, posts } from "../../../src/server/db/schema.ts";
import { buildTestApp, generousLimits } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { makeToken } from "../../support/tokens.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

type Session = Awaited<ReturnType<typeof signUp>>;
type ToolAnswer = { isError?: boolean; content: { type: string; text: string }[] };
const text = (answer: unknown) => (answer as ToolAnswer).content[0]?.text ?? "";
const json = (answer: unknown) => JSON.parse(text(answer));

describe.each(databaseTargets)("the MCP server on $name", (target) => {
  let app: App;
  let base: URL;
  let category: string;
  const clients: Client[] = [];
  beforeAll(async () => {
    app = await buildTestApp(await target.open(), {
      rateLimits: { ...generousLimits, apiTokens: { max: 40, timeWindow: 60_000 } },
    });
    await app.listen({ host: "127.0.0.1", port: 0 });
    base = new URL(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/mcp`);
    const admin = await signUp(app);
    await makeAdmin(app, admin.id);
    category = (await createCategory(app, admin)).title;
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await app.close();
  });

  /** The SDK's own client over streamable HTTP, with a token of `scopes` as its credential. */
  async function agent(owner: Session, scopes: Scope[]) {
    const made = await makeToken(app, owner, scopes);
    const client = new Client({ name: "test-agent", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(base, { requestInit: { headers: made.headers } }));
    clients.push(client);
    return { client, made };
  }

  it("lists only the tools its token's scopes allow", async () => {
    const owner = await signUp(app);
    const reader = await agent(owner, ["posts:read"]);
    const names = (await reader.client.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual(["list_comments", "list_my_posts", "read_my_post"]);
    const all = await agent(owner, ["posts:read", "posts:write", "comments:write", "stats:read", "subscribers:read"]);
    expect((await all.client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      "create_draft",
      "delete_post",
      "list_comments",
      "list_my_posts",
      "my_stats",
      "my_subscriber_count",
      "publish_post",
      "read_my_post",
      "reply_to_comment",
    ]);
    // A tool outside the scopes is not there to call.
    const refused = await reader.client.callTool({
      name: "create_draft",
      arguments: { title: "x", description: "<p>x</p>", category },
    });
    expect(refused.isError).toBe(true);
  });

  it("writes a draft, publishes it only when confirmed, replies to comments, reads stats and subscribers", async () => {
    const owner = await signUp(app);
    const { client, made } = await agent(owner, [
      "posts:read",
      "posts:write",
      "comments:write",
      "stats:read",
      "subscribers:read",
    ]);
    const draft = json(
      await client.callTool({
        name: "create_draft",
        arguments: { title: "From an agent", description: "<p>Hello<script>alert(1)</script></p>", category },
      }),
    );
    expect(draft).toMatchObject({ title: "From an agent", status: "draft" });
    expect(draft.description).not.toContain("<script>");
    const unpublished = json(await client.callTool({ name: "list_my_posts", arguments: { status: "unpublished" } }));
    expect(unpublished.items.map((post: { id: string }) => post.id)).toEqual([draft.id]);

    const unconfirmed = await client.callTool({ name: "publish_post", arguments: { id: draft.id } });
    expect(unconfirmed.isError).toBe(true);
    expect(text(unconfirmed)).toContain("confirm: true");
    const [still] = await app.db.select().from(posts).where(eq(posts.id, draft.id));
    expect(still?.status).toBe("draft");

    const published = json(await client.callTool({ name: "publish_post", arguments: { id: draft.id, confirm: true } }));
    expect(published.status).toBe("published");
    const listed = json(await client.callTool({ name: "list_my_posts", arguments: {} }));
    expect(listed.items.map((post: { id: string }) => post.id)).toContain(draft.id);

    const reader = await signUp(app);
    const commented = await app.inject({
      method: "POST",
      url: "/api/comments",
      payload: { postId: draft.id, description: "Nice one" },
      headers: bearer(reader),
    });
    expect(commented.statusCode).toBe(201);
    const comments = json(await client.callTool({ name: "list_comments", arguments: { postId: draft.id } }));
    expect(comments.items.map((comment: { description: string }) => comment.description)).toEqual(["Nice one"]);
    const reply = json(
      await client.callTool({ name: "reply_to_comment", arguments: { postId: draft.id, text: "Thanks!" } }),
    );
    expect(reply.user.id).toBe(owner.id);

    const stats = json(await client.callTool({ name: "my_stats", arguments: {} }));
    expect(Array.isArray(stats.totals)).toBe(true);
    const subscribers = json(await client.callTool({ name: "my_subscriber_count", arguments: {} }));
    expect(subscribers).toMatchObject({ active: 0 });

    const scheduledDraft = json(
      await client.callTool({ name: "create_draft", arguments: { title: "Later", description: "<p>x</p>", category } }),
    );
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const scheduled = json(
      await client.callTool({
        name: "publish_post",
        arguments: { id: scheduledDraft.id, publishAt: at, confirm: true },
      }),
    );
    expect(scheduled.status).toBe("scheduled");

    expect((await client.callTool({ name: "delete_post", arguments: { id: draft.id } })).isError).toBe(true);
    await client.callTool({ name: "delete_post", arguments: { id: draft.id, confirm: true } });
    expect(await app.db.select().from(posts).where(eq(posts.id, draft.id))).toEqual([]);

    // Every call was the token's.
    const [row] = await app.db.select().from(apiTokens).where(eq(apiTokens.id, made.id));
    expect(row?.lastUsedAt).not.toBeNull();
  });

  it("never reaches another's post, and what its owner cannot do it cannot do", async () => {
    const [owner, other] = [await signUp(app), await signUp(app)];
    const theirs = await createPost(app, other, category);
    const { client } = await agent(owner, ["posts:read", "posts:write", "comments:write"]);
    for (const [name, args] of [
      ["read_my_post", { id: theirs.id }],
      ["list_comments", { postId: theirs.id }],
      ["publish_post", { id: theirs.id, confirm: true }],
      ["delete_post", { id: theirs.id, confirm: true }],
      ["reply_to_comment", { postId: theirs.id, text: "hi" }],
    ] as const) {
      const answer = await client.callTool({ name, arguments: args });
      expect(answer.isError, name).toBe(true);
    }
    expect(await app.db.select().from(posts).where(eq(posts.id, theirs.id))).toHaveLength(1);
    const bad = await client.callTool({
      name: "create_draft",
      arguments: { title: "", description: "<p>x</p>", category: "No such category" },
    });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain("Title is required");
  });

  it("refuses a session, no credential or a revoked token, and carries the token's rate limit", async () => {
    const owner = await signUp(app);
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(base, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify(initialize),
      });
    expect((await post({})).status).toBe(401);
    expect((await post(bearer(owner))).status).toBe(401);
    const made = await makeToken(app, owner, ["posts:read"]);
    const answer = await post(made.headers);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("ratelimit-policy")).toBe('"token";q=40;w=60');
    expect(answer.headers.get("ratelimit")).toMatch(/^"token";r=39;t=\d+$/);
    expect((await answer.json()).result.serverInfo.name).toBe("penchain");
    await app.inject({ method: "DELETE", url: `/api/tokens/${made.id}`, headers: bearer(owner) });
    expect((await post(made.headers)).status).toBe(401);
    // Without sessions there is no stream to open.
    const fresh = await makeToken(app, owner, ["posts:read"]);
    expect((await fetch(base, { headers: fresh.headers })).status).toBe(405);
  });
});
