import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type net from "node:net";
import path from "node:path";
import { eq } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCOPES, type Scope } from "#shared/scopes.ts";
import type { App } from "../../../src/server/app.ts";
import { users } from "../../../src/server/db/schema.ts";
import { appealToken } from "../../../src/server/services/moderation/appeal-links.ts";
import { unsubscribeToken } from "../../../src/server/services/notifications/unsubscribe.ts";
import { subscriptionToken } from "../../../src/server/services/subscribers/subscriptions.ts";
import { buildTestApp, TEST_JWT_SECRET } from "../../support/app.ts";
import { createCategory, createPost, postForm } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { multipart, png } from "../../support/images.ts";
import { makeToken } from "../../support/tokens.ts";
import { bearer, buildRegistration, makeAdmin, signUp, verifyWallet } from "../../support/users.ts";

type Session = Awaited<ReturnType<typeof signUp>>;
const ROLES = ["visitor", "blocked", "user", "owner", "moderator", "admin"] as const;
type Role = (typeof ROLES)[number];
/** 401 and 403 are the guard refusing; "in" is the guard letting the caller through (any answer but those, or a 5xx). */
type Expected = 401 | 403 | "in";

/** What exists when a cell runs: the owner's post, comment and profile, a category, and the callers. */
interface World {
  owner: Session;
  post: { id: string };
  comment: { id: string };
  category: { id: string; title: string };
  caller: Session | null;
}
interface Request {
  url: string;
  payload?: object | string | Buffer;
  headers?: Record<string, string>;
}
type Row = [method: string, path: string, request: (world: World) => Request | Promise<Request>, expected: Expected[]];

// Every API route (the OpenAPI document's list), and what each caller gets:
// [visitor, blocked, user, owner, moderator, admin].
const PUBLIC: Expected[] = ["in", "in", "in", "in", "in", "in"];
const SIGNED_IN: Expected[] = [401, 403, "in", "in", "in", "in"];
const ADMIN: Expected[] = [401, 403, 403, 403, 403, "in"];
const OWNER: Expected[] = [401, 403, 403, "in", 403, 403];
const OWNER_OR_ADMIN: Expected[] = [401, 403, 403, "in", 403, "in"];
const MODERATOR: Expected[] = [401, 403, 403, 403, "in", "in"];
/** A signed activity's own signature decides, whoever the session is: an unsigned one is refused for everyone. */
const SIGNED_ACTIVITY: Expected[] = [401, 401, 401, 401, 401, 401];
const id = () => crypto.randomUUID();

const MATRIX: Row[] = [
  ["GET", "/api/health", () => ({ url: "/api/health" }), PUBLIC],
  ["GET", "/api/config", () => ({ url: "/api/config" }), PUBLIC],
  ["GET", "/api/auth/siwe/nonce", () => ({ url: "/api/auth/siwe/nonce" }), PUBLIC],
  [
    "POST",
    "/api/auth/siwe/verify",
    () => ({ url: "/api/auth/siwe/verify", payload: { message: "x", signature: "0x00" } }),
    PUBLIC,
  ],
  ["POST", "/api/users/register", () => ({ url: "/api/users/register", payload: buildRegistration() }), PUBLIC],
  [
    "POST",
    "/api/users/login",
    (w) => ({ url: "/api/users/login", payload: { email: w.owner.email, password: w.owner.password } }),
    PUBLIC,
  ],
  [
    "PUT",
    "/api/users/password",
    (w) => ({
      url: "/api/users/password",
      payload: { password: "a fresh long secret", currentPassword: w.caller?.password ?? "x" },
    }),
    SIGNED_IN,
  ],
  ["POST", "/api/users/logout", () => ({ url: "/api/users/logout" }), SIGNED_IN],
  [
    "POST",
    "/api/users/forget-password-token",
    (w) => ({ url: "/api/users/forget-password-token", payload: { email: w.owner.email } }),
    PUBLIC,
  ],
  [
    "PUT",
    "/api/users/reset-password",
    () => ({ url: "/api/users/reset-password", payload: { token: "x".repeat(43), password: "a fresh long secret" } }),
    PUBLIC,
  ],
  [
    "POST",
    "/api/users/generate-verify-email-token",
    () => ({ url: "/api/users/generate-verify-email-token" }),
    SIGNED_IN,
  ],
  [
    "PUT",
    "/api/users/verify-account",
    () => ({ url: "/api/users/verify-account", payload: { token: "x".repeat(43) } }),
    SIGNED_IN,
  ],
  [
    "POST",
    "/api/users/wallet",
    () => ({ url: "/api/users/wallet", payload: { message: "x", signature: "0x00" } }),
    SIGNED_IN,
  ],
  ["GET", "/api/users/profile/{id}", (w) => ({ url: `/api/users/profile/${w.owner.id}` }), SIGNED_IN],
  ["GET", "/api/users/{id}", (w) => ({ url: `/api/users/${w.owner.id}` }), PUBLIC],
  [
    "PUT",
    "/api/users",
    (w) => ({
      url: "/api/users/",
      payload: { firstName: "New", lastName: "Name", email: w.caller?.email ?? "a@example.com", bio: "Hello" },
    }),
    SIGNED_IN,
  ],
  ["GET", "/api/users", () => ({ url: "/api/users/" }), ADMIN],
  ["GET", "/api/users/follow/{id}", (w) => ({ url: `/api/users/follow/${w.owner.id}` }), SIGNED_IN],
  ["PUT", "/api/users/follow", (w) => ({ url: "/api/users/follow", payload: { followId: w.owner.id } }), SIGNED_IN],
  [
    "PUT",
    "/api/users/unfollow",
    (w) => ({ url: "/api/users/unfollow", payload: { unFollowId: w.owner.id } }),
    SIGNED_IN,
  ],
  [
    "PUT",
    "/api/users/profilephoto-upload",
    async () => {
      const body = multipart("image", "me.png", "image/png", await png());
      return { url: "/api/users/profilephoto-upload", payload: body.payload, headers: body.headers };
    },
    SIGNED_IN,
  ],
  ["PUT", "/api/users/block-user/{id}", (w) => ({ url: `/api/users/block-user/${w.owner.id}` }), ADMIN],
  ["PUT", "/api/users/unblock-user/{id}", (w) => ({ url: `/api/users/unblock-user/${w.owner.id}` }), ADMIN],
  ["PUT", "/api/users/likes/{id}", (w) => ({ url: `/api/users/likes/${w.owner.id}` }), ADMIN],
  [
    "PUT",
    "/api/users/{id}/role",
    (w) => ({ url: `/api/users/${w.owner.id}/role`, payload: { moderator: true } }),
    ADMIN,
  ],
  [
    "POST",
    "/api/email",
    (w) => ({ url: "/api/email/", payload: { toId: w.owner.id, subject: "Hi", message: "Hello" } }),
    SIGNED_IN,
  ],
  ["GET", "/api/category", () => ({ url: "/api/category/" }), PUBLIC],
  ["POST", "/api/category", () => ({ url: "/api/category/", payload: { title: `Topic ${id()}` } }), ADMIN],
  ["GET", "/api/category/{id}", (w) => ({ url: `/api/category/${w.category.id}` }), PUBLIC],
  [
    "PUT",
    "/api/category/{id}",
    (w) => ({ url: `/api/category/${w.category.id}`, payload: { title: `Renamed ${id()}` } }),
    ADMIN,
  ],
  ["DELETE", "/api/category/{id}", (w) => ({ url: `/api/category/${w.category.id}` }), ADMIN],
  ["GET", "/api/posts", () => ({ url: "/api/posts/" }), PUBLIC],
  [
    "POST",
    "/api/posts",
    (w) => {
      const form = postForm({ title: "New", description: "<p>x</p>", category: w.category.title, isFeatured: "false" });
      return { url: "/api/posts/", payload: form.payload, headers: form.headers };
    },
    SIGNED_IN,
  ],
  ["GET", "/api/posts/drafts", () => ({ url: "/api/posts/drafts" }), SIGNED_IN],
  ["GET", "/api/posts/{id}", (w) => ({ url: `/api/posts/${w.post.id}` }), PUBLIC],
  [
    "PUT",
    "/api/posts/{id}",
    (w) => ({
      url: `/api/posts/${w.post.id}`,
      payload: { title: "Edited", description: "<p>y</p>", category: w.category.title },
    }),
    OWNER,
  ],
  ["DELETE", "/api/posts/{id}", (w) => ({ url: `/api/posts/${w.post.id}` }), OWNER],
  ["GET", "/api/posts/{id}/comments", (w) => ({ url: `/api/posts/${w.post.id}/comments` }), PUBLIC],
  ["PUT", "/api/posts/likes", (w) => ({ url: "/api/posts/likes", payload: { postId: w.post.id } }), SIGNED_IN],
  ["PUT", "/api/posts/dislikes", (w) => ({ url: "/api/posts/dislikes", payload: { postId: w.post.id } }), SIGNED_IN],
  [
    "POST",
    "/api/comments",
    (w) => ({ url: "/api/comments/", payload: { postId: w.post.id, description: "Hi" } }),
    SIGNED_IN,
  ],
  ["GET", "/api/comments/{id}", (w) => ({ url: `/api/comments/${w.comment.id}` }), SIGNED_IN],
  [
    "PUT",
    "/api/comments/{id}",
    (w) => ({ url: `/api/comments/${w.comment.id}`, payload: { description: "Edited" } }),
    OWNER,
  ],
  ["DELETE", "/api/comments/{id}", (w) => ({ url: `/api/comments/${w.comment.id}` }), OWNER_OR_ADMIN],
  ["GET", "/api/payments", () => ({ url: "/api/payments" }), ADMIN],
  ["GET", "/api/users/{id}/rewards", (w) => ({ url: `/api/users/${w.owner.id}/rewards` }), ADMIN],
  [
    "POST",
    "/api/users/{id}/tip",
    (w) => ({ url: `/api/users/${w.owner.id}/tip`, payload: { transectionHash: `0x${"ab".repeat(32)}` } }),
    ADMIN,
  ],
  [
    "POST",
    "/api/posts/{id}/tips",
    (w) => ({ url: `/api/posts/${w.post.id}/tips`, payload: { txHash: `0x${"ab".repeat(32)}` } }),
    SIGNED_IN,
  ],
  ["GET", "/api/posts/{id}/tips", (w) => ({ url: `/api/posts/${w.post.id}/tips` }), PUBLIC],
  ["GET", "/api/posts/{id}/provenance", (w) => ({ url: `/api/posts/${w.post.id}/provenance` }), PUBLIC],
  [
    "POST",
    "/api/posts/{id}/revisions/{revision}/signature",
    (w) => ({ url: `/api/posts/${w.post.id}/revisions/99/signature`, payload: { signature: `0x${"ab".repeat(65)}` } }),
    OWNER,
  ],
  [
    "POST",
    "/api/users/{id}/tips",
    (w) => ({ url: `/api/users/${w.owner.id}/tips`, payload: { txHash: `0x${"ab".repeat(32)}` } }),
    SIGNED_IN,
  ],
  ["GET", "/api/notifications", () => ({ url: "/api/notifications/" }), SIGNED_IN],
  ["GET", "/api/notifications/unread-count", () => ({ url: "/api/notifications/unread-count" }), SIGNED_IN],
  ["PUT", "/api/notifications/read", () => ({ url: "/api/notifications/read", payload: {} }), SIGNED_IN],
  ["GET", "/api/notifications/settings", () => ({ url: "/api/notifications/settings" }), SIGNED_IN],
  [
    "PUT",
    "/api/notifications/settings",
    () => ({ url: "/api/notifications/settings", payload: { settings: [{ topic: "like", delivery: "email" }] } }),
    SIGNED_IN,
  ],
  // The link's token is the key: anyone holding it may use it, signed in or not.
  ...(["unsubscribe", "resubscribe"] as const).map(
    (call): Row => [
      "POST",
      `/api/notifications/${call}`,
      (w) => ({
        url: `/api/notifications/${call}`,
        payload: { userId: w.owner.id, topic: "like", token: unsubscribeToken(TEST_JWT_SECRET, w.owner.id, "like") },
      }),
      PUBLIC,
    ],
  ),
  ["GET", "/api/settings", () => ({ url: "/api/settings/" }), PUBLIC],
  [
    "PUT",
    "/api/settings",
    () => ({ url: "/api/settings/", payload: { siteName: "Penchain", siteDescription: "A blog" } }),
    ADMIN,
  ],
  ["GET", "/api/settings/status", () => ({ url: "/api/settings/status" }), ADMIN],
  // Federation (issue 21). Whether a reply is the caller's to approve or remove is the service's to say (a stranger
  // gets 403 there: federation.test.ts); the guard lets in any signed-in user.
  ["GET", "/api/federation/posts/{id}", (w) => ({ url: `/api/federation/posts/${w.post.id}` }), PUBLIC],
  ["GET", "/api/federation/replies/pending", () => ({ url: "/api/federation/replies/pending" }), SIGNED_IN],
  [
    "PUT",
    "/api/federation/replies/{id}/approve",
    () => ({ url: `/api/federation/replies/${id()}/approve` }),
    SIGNED_IN,
  ],
  ["DELETE", "/api/federation/replies/{id}", () => ({ url: `/api/federation/replies/${id()}` }), SIGNED_IN],
  ["GET", "/api/federation/blocked-domains", () => ({ url: "/api/federation/blocked-domains" }), ADMIN],
  [
    "POST",
    "/api/federation/blocked-domains",
    () => ({ url: "/api/federation/blocked-domains", payload: { domain: `spam-${id().slice(0, 8)}.example` } }),
    ADMIN,
  ],
  [
    "DELETE",
    "/api/federation/blocked-domains/{domain}",
    () => ({ url: "/api/federation/blocked-domains/spam.example" }),
    ADMIN,
  ],
  // Moderation: the rules, reports, the moderators' queue and actions, the public log.
  ["GET", "/api/rules", () => ({ url: "/api/rules" }), PUBLIC],
  [
    "PUT",
    "/api/rules",
    () => ({ url: "/api/rules", payload: { rules: [{ title: "Be kind", description: "" }] } }),
    ADMIN,
  ],
  [
    "POST",
    "/api/reports",
    (w) => ({ url: "/api/reports", payload: { kind: "post", id: w.post.id, rule: "spam" } }),
    SIGNED_IN,
  ],
  ["GET", "/api/reports/mine", () => ({ url: "/api/reports/mine" }), SIGNED_IN],
  ["GET", "/api/moderation/reports", () => ({ url: "/api/moderation/reports" }), MODERATOR],
  [
    "POST",
    "/api/moderation/actions",
    (w) => ({
      url: "/api/moderation/actions",
      payload: { target: { kind: "comment", id: w.comment.id }, action: "dismiss", rule: "spam" },
    }),
    MODERATOR,
  ],
  ["GET", "/api/moderation/terms", () => ({ url: "/api/moderation/terms" }), ADMIN],
  [
    "PUT",
    "/api/moderation/terms",
    () => ({ url: "/api/moderation/terms", payload: { terms: [{ term: "casino", action: "hold" }] } }),
    ADMIN,
  ],
  ["GET", "/api/moderation/domain-blocks.csv", () => ({ url: "/api/moderation/domain-blocks.csv" }), ADMIN],
  [
    "POST",
    "/api/moderation/domain-blocks",
    () => ({
      url: "/api/moderation/domain-blocks",
      payload: "#domain,#severity\nspam.example,silence\n",
      headers: { "content-type": "text/csv" },
    }),
    ADMIN,
  ],
  [
    "POST",
    "/api/stats/beacon",
    (w) => ({ url: "/api/stats/beacon", payload: { kind: "post", id: w.post.id, url: `/posts/${w.post.id}` } }),
    PUBLIC,
  ],
  ["GET", "/api/stats/author", () => ({ url: "/api/stats/author" }), SIGNED_IN],
  ["GET", "/api/stats/author.csv", () => ({ url: "/api/stats/author.csv" }), SIGNED_IN],
  ["GET", "/api/stats/site", () => ({ url: "/api/stats/site" }), ADMIN],
  ["GET", "/api/stats/site.csv", () => ({ url: "/api/stats/site.csv" }), ADMIN],
  ["GET", "/api/stats/posts/{id}", (w) => ({ url: `/api/stats/posts/${w.post.id}` }), OWNER_OR_ADMIN],
  ["GET", "/api/stats/posts/{id}.csv", (w) => ({ url: `/api/stats/posts/${w.post.id}.csv` }), OWNER_OR_ADMIN],
  [
    "POST",
    "/api/subscriptions",
    (w) => ({ url: "/api/subscriptions", payload: { authorId: w.owner.id, email: `${id()}@example.org` } }),
    PUBLIC,
  ],
  [
    "GET",
    "/api/subscriptions/confirm/{token}",
    () => ({ url: `/api/subscriptions/confirm/${"t".repeat(43)}` }),
    PUBLIC,
  ],
  ...(["unsubscribe", "resubscribe"] as const).map((action): Row => {
    const subscription = id();
    return [
      "POST",
      `/api/subscriptions/${action}`,
      () => ({
        url: `/api/subscriptions/${action}`,
        payload: { id: subscription, token: subscriptionToken(TEST_JWT_SECRET, subscription) },
      }),
      PUBLIC,
    ];
  }),
  ["GET", "/api/users/{id}/subscribers", (w) => ({ url: `/api/users/${w.owner.id}/subscribers` }), OWNER_OR_ADMIN],
  [
    "GET",
    "/api/users/{id}/subscribers.csv",
    (w) => ({ url: `/api/users/${w.owner.id}/subscribers.csv` }),
    OWNER_OR_ADMIN,
  ],
  // A wrong password: the guard lets the caller through, and nobody's account starts closing.
  [
    "POST",
    "/api/users/close",
    () => ({ url: "/api/users/close", payload: { password: "not the password", keepPosts: true } }),
    SIGNED_IN,
  ],
  ["DELETE", "/api/users/close", () => ({ url: "/api/users/close" }), SIGNED_IN],
  ["POST", "/api/exports", () => ({ url: "/api/exports" }), SIGNED_IN],
  ["GET", "/api/exports/latest", () => ({ url: "/api/exports/latest" }), SIGNED_IN],
  ["GET", "/api/exports/{id}", () => ({ url: `/api/exports/${id()}` }), SIGNED_IN],
  [
    "GET",
    "/api/exports/{id}/download/{token}",
    () => ({ url: `/api/exports/${id()}/download/${"t".repeat(43)}` }),
    PUBLIC,
  ],
  // No file: the guard lets the caller through to the body's check, and nothing is imported.
  ["POST", "/api/imports", () => ({ url: "/api/imports", payload: { format: "wxr" } }), SIGNED_IN],
  ["GET", "/api/imports/latest", () => ({ url: "/api/imports/latest" }), SIGNED_IN],
  ["GET", "/api/imports/{id}", () => ({ url: `/api/imports/${id()}` }), SIGNED_IN],
  ["DELETE", "/api/imports/{id}", () => ({ url: `/api/imports/${id()}` }), SIGNED_IN],
  ["GET", "/api/moderation/mine", () => ({ url: "/api/moderation/mine" }), SIGNED_IN],
  [
    "POST",
    "/api/appeals",
    () => ({ url: "/api/appeals", payload: { actionId: id(), text: "This decision was a mistake." } }),
    SIGNED_IN,
  ],
  ["GET", "/api/moderation/appeals", () => ({ url: "/api/moderation/appeals" }), MODERATOR],
  [
    "POST",
    "/api/moderation/appeals/{id}",
    () => ({ url: `/api/moderation/appeals/${id()}`, payload: { outcome: "upheld" } }),
    MODERATOR,
  ],
  [
    "GET",
    "/api/appeals/by-link/{actionId}/{token}",
    () => {
      const actionId = id();
      return { url: `/api/appeals/by-link/${actionId}/${appealToken({ jwtSecret: TEST_JWT_SECRET }, actionId)}` };
    },
    PUBLIC,
  ],
  [
    "POST",
    "/api/appeals/by-link",
    () => {
      const actionId = id();
      const token = appealToken({ jwtSecret: TEST_JWT_SECRET }, actionId);
      return { url: "/api/appeals/by-link", payload: { actionId, token, text: "This decision was a mistake." } };
    },
    PUBLIC,
  ],
  ...(["block", "mute"] as const).flatMap((relation) =>
    (["POST", "DELETE"] as const).map(
      (method): Row => [
        method,
        `/api/users/{id}/${relation}`,
        (w) => ({ url: `/api/users/${w.owner.id}/${relation}` }),
        SIGNED_IN,
      ],
    ),
  ),
  ["GET", "/api/me/relations", () => ({ url: "/api/me/relations" }), SIGNED_IN],
  ["PUT", "/api/me/muted-words", () => ({ url: "/api/me/muted-words", payload: { words: ["casino"] } }), SIGNED_IN],
  ["GET", "/api/comments/settings", () => ({ url: "/api/comments/settings" }), SIGNED_IN],
  [
    "PUT",
    "/api/comments/settings",
    () => ({ url: "/api/comments/settings", payload: { holdFirstComments: false } }),
    SIGNED_IN,
  ],
  ["GET", "/api/comments/waiting", (w) => ({ url: `/api/comments/waiting?postId=${w.post.id}` }), SIGNED_IN],
  ...(["approve", "decline"] as const).map(
    (path): Row => [
      "POST",
      `/api/comments/{id}/${path}`,
      (w) => ({ url: `/api/comments/${w.comment.id}/${path}` }),
      SIGNED_IN,
    ],
  ),
  ["GET", "/api/moderation/log", () => ({ url: "/api/moderation/log" }), PUBLIC],
  ["GET", "/api/moderation/log/export", () => ({ url: "/api/moderation/log/export" }), PUBLIC],
  ["POST", "/api/tokens", () => ({ url: "/api/tokens", payload: { name: "x", scopes: ["posts:read"] } }), SIGNED_IN],
  ["GET", "/api/tokens", () => ({ url: "/api/tokens" }), SIGNED_IN],
  ["DELETE", "/api/tokens/{id}", () => ({ url: `/api/tokens/${id()}` }), SIGNED_IN],
  // Anyone signed in keeps webhooks; another's answers as missing (a 404 lets the guard's caller through).
  [
    "POST",
    "/api/webhooks",
    () => ({ url: "/api/webhooks", payload: { url: "http://127.0.0.1:9/hook", events: ["follower.deleted"] } }),
    SIGNED_IN,
  ],
  ["GET", "/api/webhooks", () => ({ url: "/api/webhooks" }), SIGNED_IN],
  ["GET", "/api/webhooks/{id}", () => ({ url: `/api/webhooks/${id()}` }), SIGNED_IN],
  ["PATCH", "/api/webhooks/{id}", () => ({ url: `/api/webhooks/${id()}`, payload: { paused: true } }), SIGNED_IN],
  ["DELETE", "/api/webhooks/{id}", () => ({ url: `/api/webhooks/${id()}` }), SIGNED_IN],
  ["GET", "/api/webhooks/{id}/deliveries", () => ({ url: `/api/webhooks/${id()}/deliveries` }), SIGNED_IN],
  [
    "POST",
    "/api/webhooks/{id}/deliveries/{deliveryId}/redeliver",
    () => ({ url: `/api/webhooks/${id()}/deliveries/msg_${id()}/redeliver` }),
    SIGNED_IN,
  ],
  ["POST", "/api/webhooks/{id}/test", () => ({ url: `/api/webhooks/${id()}/test` }), SIGNED_IN],
];

/**
 * The routes outside the OpenAPI document: reader pages, feeds, the live stream, the one-click unsubscribe, the
 * fediverse's addresses (the app here federates) and the API's own documentation. Paths as Fastify writes them.
 */
const OTHER_ROUTES: Row[] = [
  ...["/", "/posts", "/search", "/login", "/register", "/password-reset-token", "/create-post"].map(
    (url): Row => ["GET", url, () => ({ url }), PUBLIC],
  ),
  ["GET", "/posts/:id", (w) => ({ url: `/posts/${w.post.id}` }), PUBLIC],
  ["GET", "/posts/:id/provenance", (w) => ({ url: `/posts/${w.post.id}/provenance` }), PUBLIC],
  [
    "GET",
    "/profile/:id",
    (w) => ({ url: `/profile/${w.owner.id}`, headers: { accept: "application/activity+json" } }),
    PUBLIC,
  ],
  ...["/rss.xml", "/sitemap.xml", "/sitemap-posts-1.xml", "/robots.txt"].map(
    (url): Row => ["GET", url.replace("posts-1", ":file"), () => ({ url }), PUBLIC],
  ),
  ["GET", "/api/docs", () => ({ url: "/api/docs/json" }), PUBLIC],
  ["GET", "/api/openapi.json", () => ({ url: "/api/openapi.json" }), PUBLIC],
  ["GET", "/api/notifications/stream", () => ({ url: "/api/notifications/stream" }), SIGNED_IN],
  [
    "POST",
    "/unsubscribe/:userId/:topic/:token",
    (w) => ({
      url: `/unsubscribe/${w.owner.id}/like/${unsubscribeToken(TEST_JWT_SECRET, w.owner.id, "like")}`,
      payload: "List-Unsubscribe=One-Click",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    }),
    PUBLIC,
  ],
  [
    "POST",
    "/subscriptions/unsubscribe/:id/:token",
    () => {
      const subscription = id();
      return {
        url: `/subscriptions/unsubscribe/${subscription}/${subscriptionToken(TEST_JWT_SECRET, subscription)}`,
        payload: "List-Unsubscribe=One-Click",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      };
    },
    PUBLIC,
  ],
  [
    "GET",
    "/.well-known/webfinger",
    () => ({ url: `/.well-known/webfinger?resource=${encodeURIComponent("acct:blog@penchain.test")}` }),
    PUBLIC,
  ],
  ["GET", "/.well-known/nodeinfo", () => ({ url: "/.well-known/nodeinfo" }), PUBLIC],
  ["GET", "/nodeinfo/2.1", () => ({ url: "/nodeinfo/2.1" }), PUBLIC],
  [
    "GET",
    "/ap/*",
    (w) => ({ url: `/ap/actors/${w.owner.id}`, headers: { accept: "application/activity+json" } }),
    PUBLIC,
  ],
  [
    "POST",
    "/ap/*",
    (w) => ({
      url: "/ap/inbox",
      payload: JSON.stringify({
        type: "Like",
        actor: "https://elsewhere.example/users/x",
        object: `/posts/${w.post.id}`,
      }),
      headers: { "content-type": "application/activity+json" },
    }),
    SIGNED_ACTIVITY,
  ],
  ["GET", "/uploads/*", () => ({ url: "/uploads/missing.webp" }), PUBLIC],
  // The MCP endpoint takes a personal access token only: a session is no credential there (tokens.test.ts, mcp.test.ts).
  ["POST", "/mcp", () => ({ url: "/mcp", payload: {} }), [401, 401, 401, 401, 401, 401]],
  ["GET", "/mcp", () => ({ url: "/mcp" }), PUBLIC],
  ["DELETE", "/mcp", () => ({ url: "/mcp" }), PUBLIC],
];

const CLIENT_DIR = path.resolve("dist/client");
/** The built client's files, each a route of its own (`npm test` builds before this runs). */
const builtFiles = () =>
  new Set(
    (fs.readdirSync(CLIENT_DIR, { recursive: true }) as string[]).map((file) => `/${file.split(path.sep).join("/")}`),
  );

describe.each(databaseTargets)("who may call each route, on $name", (target) => {
  let app: App;
  /** Makes the categories; callers are made afresh for each cell, since some calls end their own sessions. */
  let setup: Session;
  beforeAll(async () => {
    app = await buildTestApp(await target.open(), { env: { FEDERATION: "on" }, clientDir: CLIENT_DIR });
    await app.listen({ host: "127.0.0.1", port: 0 });
    setup = await signUp(app);
    await makeAdmin(app, setup.id);
  });
  afterAll(() => app.close());

  it("lists every route the API serves, so a new one cannot go unguarded", async () => {
    await app.ready();
    const document = app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const served = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(served.sort()).toEqual(MATRIX.map(([method, path]) => `${method} ${path}`).sort());
  });

  it("lists every other route the server registers: pages, feeds, streams, the fediverse's", () => {
    const files = builtFiles();
    const api = new Set(MATRIX.map(([method, path]) => `${method} ${path}`));
    const other = new Set(OTHER_ROUTES.map(([method, path]) => `${method} ${path}`));
    const unlisted = app.routeList().filter((route) => {
      const [method, url = ""] = route.split(" ");
      const trimmed = url.length > 1 ? url.replace(/\/$/, "") : url;
      const openApi = `${method} ${trimmed.replace(/:(\w+)/g, "{$1}")}`;
      if (api.has(openApi) || api.has(`${openApi}/`) || other.has(`${method} ${trimmed}`)) return false;
      // The built client's files and the documentation's own pages are public files.
      return !(method === "GET" && (files.has(url) || url.startsWith("/api/docs")));
    });
    expect(unlisted).toEqual([]);
  });

  /** A fresh world for one cell: the owner's account, post and comment, a category, and a caller in `role`. */
  async function world(role: Role): Promise<World> {
    const owner = await signUp(app);
    const category = await createCategory(app, setup);
    const post = await createPost(app, owner, category.title);
    const commented = await app.inject({
      method: "POST",
      url: "/api/comments",
      payload: { postId: post.id, description: "Mine" },
      headers: bearer(owner),
    });
    const callers: Record<Role, () => Promise<Session | null>> = {
      visitor: async () => null,
      user: () => signUp(app),
      owner: async () => owner,
      admin: async () => {
        const admin = await signUp(app);
        await makeAdmin(app, admin.id);
        // An admin tip is judged on-chain: with a verified wallet, the guard (not a missing wallet) decides.
        await verifyWallet(app, admin, privateKeyToAccount(generatePrivateKey()));
        return admin;
      },
      moderator: async () => {
        const moderator = await signUp(app);
        await app.db.update(users).set({ isModerator: true }).where(eq(users.id, moderator.id));
        return moderator;
      },
      blocked: async () => {
        const blocked = await signUp(app);
        await app.db.update(users).set({ isBlocked: true }).where(eq(users.id, blocked.id));
        return blocked;
      },
    };
    return { owner, post, comment: commented.json(), category, caller: await callers[role]() };
  }

  /** The live stream never ends: its status is read from the response's head, then the socket is dropped. */
  const streamStatus = (url: string, headers: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      const port = (app.server.address() as net.AddressInfo).port;
      const request = http.get({ host: "127.0.0.1", port, path: url, headers }, (response) => {
        resolve(response.statusCode ?? 0);
        request.destroy();
      });
      request.on("error", reject);
    });

  // A guard does not depend on the database: the routes outside the API are tried on the first target only.
  const rows = target === databaseTargets[0] ? [...MATRIX, ...OTHER_ROUTES] : MATRIX;
  for (const [method, path, build, expected] of rows) {
    it(`${method} ${path}`, async () => {
      const seen: Record<string, number> = {};
      // The six worlds share nothing, so they are made at once (their password hashes run on the thread pool).
      const worlds = await Promise.all(ROLES.map(world));
      for (const [index, role] of ROLES.entries()) {
        const w = worlds[index] as World;
        const request = await build(w);
        const headers = { ...request.headers, ...(w.caller ? bearer(w.caller) : {}) };
        const response =
          path === "/api/notifications/stream"
            ? { statusCode: await streamStatus(request.url, headers), body: "" }
            : await app.inject({ method: method as "GET", url: request.url, payload: request.payload, headers });
        seen[role] = response.statusCode;
        const want = expected[index];
        if (want === "in") {
          expect([401, 403], `${role}: ${response.body}`).not.toContain(response.statusCode);
          expect(response.statusCode === 500, `${role}: ${response.body}`).toBe(false);
        } else {
          expect(response.statusCode, `${role}: ${response.body}`).toBe(want);
        }
      }
      expect(Object.keys(seen)).toHaveLength(ROLES.length);
    });
  }

  /**
   * The same routes called with a personal access token instead of a session, by a caller the session's row lets in:
   * a route naming no scope refuses every token; one naming a scope refuses a token with every other scope, and a
   * token holding it gets what the session gets.
   */
  const STAFF_ONLY: readonly string[] = ["moderation", "admin"];
  for (const [method, path, build, expected] of MATRIX) {
    const chosen = (["owner", "user", "moderator", "admin"] as const).find(
      (role) => expected[ROLES.indexOf(role)] === "in",
    );
    if (!chosen) continue;
    it(`with a token: ${method} ${path}`, async () => {
      const registered = `${method} ${path.replace(/\{(\w+)\}/g, ":$1")}`;
      // A prefix's own route is registered without its trailing slash as well.
      const scope = app.tokenScopeOf(registered) ?? app.tokenScopeOf(registered.replace(/\/$/, ""));
      expect(scope, `${registered} is not a route`).not.toBeUndefined();
      const w = await world(chosen);
      const caller = w.caller as Session;
      const holdable = SCOPES.filter(
        (each) =>
          !STAFF_ONLY.includes(each) || (chosen === "admin" ? true : chosen === "moderator" && each === "moderation"),
      );
      const call = async (scopes: Scope[]) => {
        const { headers } = await makeToken(app, caller, scopes);
        const request = await build(w);
        return app.inject({
          method: method as "GET",
          url: request.url,
          payload: request.payload,
          headers: { ...request.headers, ...headers },
        });
      };
      if (!scope || scope === "any") {
        const refused = await call(holdable);
        expect(refused.statusCode, refused.body).toBe(403);
        return;
      }
      const others = holdable.filter((each) => each !== scope);
      if (others.length > 0) {
        const refused = await call(others);
        expect(refused.statusCode, refused.body).toBe(403);
      }
      const allowed = await call([scope]);
      expect([401, 403], allowed.body).not.toContain(allowed.statusCode);
      expect(allowed.statusCode === 500, allowed.body).toBe(false);
    });
  }
});
