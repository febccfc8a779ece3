import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { createPostBodySchema, type POST_STATUSES, postUpdateSchema } from "#shared/schemas/posts.ts";
import { statsQuerySchema } from "#shared/schemas/stats.ts";
import type { Scope } from "#shared/scopes.ts";
import { z as mini } from "#shared/zod.ts";
import { HttpError, validationError } from "../../http-error.ts";
import type { LimitName } from "../../plugins/rate-limits.ts";
import { createComment, listComments } from "../../services/content/comments.ts";
import { createPost, deletePost, updatePost } from "../../services/content/post-writes.ts";
import { getPost, getPostDetail, listPosts, listUnpublishedPosts } from "../../services/content/shown-posts.ts";
import type { AuthUser } from "../../services/core/auth-user.ts";
import type { Deps } from "../../services/core/deps.ts";
import { authorStats } from "../../services/stats/stats.ts";
import { subscriberCounts } from "../../services/subscribers/subscriptions.ts";

/** Who the tools act for, and the limits the same actions count against through the API. */
export interface ToolContext {
  deps: Deps;
  user: AuthUser;
  scopes: readonly Scope[];
  hit: (name: LimitName, key: string) => Promise<void>;
  log: Deps["log"];
}

const NOT_YOURS = "Post not found among yours.";
const CONFIRM =
  "This changes what readers see and cannot be undone by this tool: ask the person, then call again with confirm: true.";

const id = z.uuid();
const page = {
  limit: z.number().int().min(1).max(100).default(20).describe("How many, at most 100"),
  cursor: z.string().max(300).optional().describe("The nextCursor of the previous page"),
};
const confirm = z.boolean().optional().describe("Must be true: the person agreed to this");

/** A value as the tool's answer: JSON text, and the same as structured content. */
const answer = (value: object): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value) }],
  structuredContent: value as Record<string, unknown>,
});
const refusal = (message: string): CallToolResult => ({ content: [{ type: "text", text: message }], isError: true });

/** The route's own schema decides, so a tool accepts exactly what the API does. */
function parsed<T extends mini.ZodMiniType>(schema: T, input: unknown): mini.output<T> {
  const result = mini.safeParse(schema, input);
  if (!result.success) throw validationError(result.error.issues);
  return result.data;
}

/** The post, if it is the caller's (whatever its status); anyone else's is as good as missing. */
async function ownPost(context: ToolContext, postId: string) {
  const post = await getPost(context.deps, postId, context.user.id).catch(() => null);
  if (!post || post.user.id !== context.user.id) throw new HttpError(404, NOT_YOURS);
  return post;
}

/**
 * The tools an agent sees: only those its token's scopes allow. Each calls the service its API route calls, as the
 * token's owner, counting against the same per-user limits; a refusal comes back as the tool's error text.
 */
export function registerTools(server: McpServer, context: ToolContext) {
  const { deps, user } = context;
  const tool = <Shape extends z.ZodRawShape>(
    name: string,
    scope: Scope,
    description: string,
    shape: Shape,
    run: (input: z.infer<z.ZodObject<Shape>>) => Promise<object>,
    annotations: { readOnlyHint?: boolean; destructiveHint?: boolean } = {},
  ) => {
    if (!context.scopes.includes(scope)) return;
    server.registerTool(name, { description, inputSchema: shape, annotations }, (async (input: never) => {
      try {
        return answer(await run(input));
      } catch (error) {
        if (error instanceof HttpError) return refusal(error.message);
        context.log.error({ err: error, tool: name }, "MCP tool failed");
        return refusal("Something went wrong on the server.");
      }
    }) as never);
  };

  tool(
    "list_my_posts",
    "posts:read",
    "List your posts: published ones (newest first), or your drafts and scheduled posts (last edited first).",
    { status: z.enum(["published", "unpublished"]).default("published"), ...page },
    ({ status, limit, cursor }) =>
      status === "published"
        ? listPosts(deps, { author: user.id, limit, cursor })
        : listUnpublishedPosts(deps, user.id, { limit, cursor }),
    { readOnlyHint: true },
  );
  tool(
    "read_my_post",
    "posts:read",
    "Read one of your posts, whatever its status, with its first comments.",
    { id },
    async ({ id }) => {
      await ownPost(context, id);
      return getPostDetail(deps, id, user.id);
    },
    { readOnlyHint: true },
  );
  tool(
    "create_draft",
    "posts:write",
    "Create a draft post (HTML description; the category's title). Nobody sees it until it is published.",
    { title: z.string(), description: z.string(), category: z.string() },
    async (input) => {
      await context.hit("posts", user.id);
      return createPost(deps, user, parsed(createPostBodySchema, { ...input, isFeatured: false, status: "draft" }));
    },
  );
  tool(
    "publish_post",
    "posts:write",
    "Publish one of your drafts now, or schedule it with publishAt (an ISO instant in the future). Needs confirm: true.",
    { id, publishAt: z.string().max(64).optional(), confirm },
    async ({ id, publishAt, confirm }) => {
      if (confirm !== true) throw new HttpError(400, CONFIRM);
      await context.hit("posts", user.id);
      const post = await ownPost(context, id);
      const status: (typeof POST_STATUSES)[number] = publishAt ? "scheduled" : "published";
      const { title, description, category } = post;
      return updatePost(deps, user, id, parsed(postUpdateSchema, { title, description, category, status, publishAt }));
    },
    { destructiveHint: true },
  );
  tool(
    "delete_post",
    "posts:write",
    "Delete one of your posts with its comments. Needs confirm: true.",
    { id, confirm },
    async ({ id, confirm }) => {
      if (confirm !== true) throw new HttpError(400, CONFIRM);
      return deletePost(deps, user, id);
    },
    { destructiveHint: true },
  );
  tool(
    "list_comments",
    "posts:read",
    "List the comments on one of your posts, newest first.",
    { postId: id, ...page },
    async ({ postId, limit, cursor }) => {
      await ownPost(context, postId);
      return listComments(deps, postId, { limit, cursor });
    },
    { readOnlyHint: true },
  );
  tool(
    "reply_to_comment",
    "comments:write",
    "Reply under one of your posts (comments are a flat list: name who you answer).",
    { postId: id, text: z.string() },
    async ({ postId, text }) => {
      await ownPost(context, postId);
      await context.hit("comments", user.id);
      return createComment(deps, user, postId, text);
    },
  );
  tool(
    "my_stats",
    "stats:read",
    "Your stats for a period (default: the last 30 days by day): reads, sources, devices, audience, tips.",
    { from: z.string().max(64).optional(), to: z.string().max(64).optional(), interval: z.string().optional() },
    async (input) => {
      await context.hit("stats", user.id);
      return authorStats(deps, user, parsed(statsQuerySchema, input));
    },
    { readOnlyHint: true },
  );
  tool(
    "my_subscriber_count",
    "subscribers:read",
    "How many readers are subscribed to you by e-mail (active, pending, unsubscribed).",
    {},
    async () => {
      await context.hit("stats", user.id);
      return subscriberCounts(deps, user, user.id);
    },
    { readOnlyHint: true },
  );
}
