import type { Access } from "./permissions.ts";

export interface ScreenPath {
  path: string;
  access: Access;
}

/**
 * docs/specification.md §Routes: every screen's address and who may open it. The client builds its router from it; the
 * server keeps an imported post's old address from taking one over.
 */
export const SCREEN_PATHS: ScreenPath[] = [
  { path: "/", access: "public" },
  { path: "/register", access: "public" },
  { path: "/login", access: "public" },
  { path: "/posts", access: "public" },
  { path: "/posts/:id", access: "public" },
  // Not in the spec: full-text search (docs/product.md, "Search, drafts and scheduled posts"), rendered on the server like the lists.
  { path: "/search", access: "public" },
  { path: "/password-reset-token", access: "public" },
  { path: "/reset-password/:token", access: "public" },
  { path: "/create-post", access: "user" },
  { path: "/update-post/:id", access: "user" },
  { path: "/update-comment/:id", access: "user" },
  { path: "/profile/:id", access: "user" },
  { path: "/upload-profile-photo", access: "user" },
  { path: "/update-profile/:id", access: "user" },
  { path: "/verify-account/:token", access: "user" },
  { path: "/update-password", access: "user" },
  { path: "/add-category", access: "admin" },
  { path: "/category-list", access: "admin" },
  { path: "/update-category/:id", access: "admin" },
  { path: "/users", access: "admin" },
  // The spec lists /send-mail under admins; every signed-in user may message from a profile
  // (docs/specification.md §Where the product departs).
  { path: "/send-mail", access: "user" },
  { path: "/Settings", access: "admin" },
  // Not in the spec: notifications (docs/product.md, "Following, notifications and tips"), and the page of a mail's unsubscribe link.
  { path: "/notifications", access: "user" },
  { path: "/notifications/settings", access: "user" },
  // Not in the spec: blocks, mutes, muted words and first-time commenters (docs/product.md, "Moderation").
  { path: "/settings/blocks", access: "user" },
  // Not in the spec: closing one's account (docs/product.md, "Leaving").
  { path: "/settings/account", access: "user" },
  // Not in the spec: personal access tokens for scripts and agents (docs/tokens.md).
  { path: "/settings/tokens", access: "user" },
  // Not in the spec: webhooks to other systems (docs/webhooks.md).
  { path: "/settings/webhooks", access: "user" },
  // Not in the spec: bringing an archive from WordPress, Ghost, Substack or Markdown (docs/product.md, "Importing").
  { path: "/import", access: "user" },
  { path: "/unsubscribe/:userId/:topic/:token", access: "public" },
  // Not in the spec: verified featured fees and tips, and a user's rewards.
  { path: "/payments", access: "admin" },
  // Not in the spec: the site's rules, the moderators' queue and the public moderation log (docs/product.md, "Moderation").
  { path: "/rules", access: "public" },
  { path: "/moderation", access: "moderator" },
  { path: "/moderation/log", access: "public" },
  { path: "/decisions", access: "user" },
  { path: "/appeal/:actionId/:token", access: "public" },
  // Not in the spec: cookie-free stats (docs/product.md, "Stats").
  { path: "/stats", access: "user" },
  { path: "/stats/posts/:id", access: "user" },
  { path: "/admin/stats", access: "admin" },
  // Not in the spec: readers subscribed by e-mail without an account (docs/product.md, "Subscribing by e-mail").
  { path: "/subscriptions/confirm/:token", access: "public" },
  { path: "/subscriptions/unsubscribe/:id/:token", access: "public" },
];

/** The screen whose path matches `pathname`, as react-router matches it: case-insensitive, `:name` one segment. */
export function screenPathAt(pathname: string): ScreenPath | undefined {
  const parts = pathname.toLowerCase().replace(/\/+$/, "").split("/");
  return SCREEN_PATHS.find(({ path }) => {
    const pattern = path.toLowerCase().split("/");
    return (
      path !== "/" &&
      pattern.length === parts.length &&
      pattern.every((segment, index) => (segment.startsWith(":") ? parts[index] !== "" : segment === parts[index]))
    );
  });
}

/** Whether the client has a screen at `pathname` (home included): any other page address answers 404. */
export const isScreenPath = (pathname: string) => pathname === "/" || screenPathAt(pathname) !== undefined;
