import type { Access } from "#shared/permissions.ts";
import { pathMatches } from "#shared/screen-paths.ts";

// Every screen but home and not-found is a chunk of its own: a reader never downloads the editor or the forms, and a
// writer's first page not the reader pages. This table is all main.tsx needs to fetch the chunk of the page it opens
// at once (no React, no router), and what routes.tsx builds the router from.
const auth = () => import("./routes/auth.tsx");
const account = () => import("./routes/account.tsx");
const edit = () => import("./routes/edit.tsx");
const password = () => import("./routes/password.tsx");
const admin = () => import("./routes/admin.tsx");
const posts = () => import("./routes/posts.tsx");
const post = () => import("./routes/post.tsx");
const search = () => import("./routes/search.tsx");
const createPost = () => import("./routes/create-post.tsx");
const notifications = () => import("./routes/notifications.tsx");
const moderation = () => import("./routes/moderation.tsx");
const stats = () => import("./routes/stats.tsx");
const subscriptions = () => import("./routes/subscriptions.tsx");

/** A screen's chunk and the name it exports the screen under (checked against the module). */
const chunk = <M, K extends keyof M & string>(load: () => Promise<M>, name: K) => ({
  load: load as () => Promise<Record<string, unknown>>,
  name,
});

export interface Screen {
  path: string;
  access: Access;
  load?: () => Promise<Record<string, unknown>>;
  name?: string;
}

/** Section 2 of the spec: every route and who may open it. */
export const SCREENS: Screen[] = [
  { path: "/", access: "public" },
  { path: "/register", access: "public", ...chunk(auth, "RegisterRoute") },
  { path: "/login", access: "public", ...chunk(auth, "LoginRoute") },
  { path: "/posts", access: "public", ...chunk(posts, "PostsRoute") },
  { path: "/posts/:id", access: "public", ...chunk(post, "PostRoute") },
  // Not in the spec: full-text search (docs/product.md, "Search, drafts and scheduled posts"), rendered on the server like the lists.
  { path: "/search", access: "public", ...chunk(search, "SearchRoute") },
  { path: "/password-reset-token", access: "public", ...chunk(password, "PasswordResetRequestRoute") },
  { path: "/reset-password/:token", access: "public", ...chunk(password, "ResetPasswordRoute") },
  { path: "/create-post", access: "user", ...chunk(createPost, "CreatePostRoute") },
  { path: "/update-post/:id", access: "user", ...chunk(edit, "EditPostRoute") },
  { path: "/update-comment/:id", access: "user", ...chunk(edit, "EditCommentRoute") },
  { path: "/profile/:id", access: "user", ...chunk(account, "ProfileRoute") },
  { path: "/upload-profile-photo", access: "user", ...chunk(account, "UploadPhotoRoute") },
  { path: "/update-profile/:id", access: "user", ...chunk(account, "UpdateProfileRoute") },
  { path: "/verify-account/:token", access: "user", ...chunk(password, "VerifyAccountRoute") },
  { path: "/update-password", access: "user", ...chunk(account, "ChangePasswordRoute") },
  { path: "/add-category", access: "admin", ...chunk(admin, "AddCategoryRoute") },
  { path: "/category-list", access: "admin", ...chunk(admin, "CategoryListRoute") },
  { path: "/update-category/:id", access: "admin", ...chunk(admin, "UpdateCategoryRoute") },
  { path: "/users", access: "admin", ...chunk(admin, "UsersRoute") },
  // The spec lists /send-mail under admin; the brief lets every signed-in user message from a profile.
  { path: "/send-mail", access: "user", ...chunk(admin, "SendMailRoute") },
  { path: "/Settings", access: "admin", ...chunk(admin, "SettingsRoute") },
  // Not in the spec: notifications (docs/product.md, "Following, notifications and tips"), and the page of a mail's unsubscribe link.
  { path: "/notifications", access: "user", ...chunk(notifications, "NotificationsRoute") },
  { path: "/notifications/settings", access: "user", ...chunk(notifications, "NotificationSettingsRoute") },
  // Not in the spec: blocks, mutes, muted words and first-time commenters (docs/product.md, "Moderation").
  { path: "/settings/blocks", access: "user", ...chunk(account, "BlocksRoute") },
  // Not in the spec: closing one's account (docs/product.md, "Leaving").
  { path: "/settings/account", access: "user", ...chunk(account, "AccountSettingsRoute") },
  // Not in the spec: bringing an archive from WordPress, Ghost, Substack or Markdown (docs/product.md, "Importing").
  { path: "/import", access: "user", ...chunk(account, "ImportRoute") },
  { path: "/unsubscribe/:userId/:topic/:token", access: "public", ...chunk(notifications, "UnsubscribeRoute") },
  // Not in the spec: verified featured fees and tips, and a user's rewards.
  { path: "/payments", access: "admin", ...chunk(admin, "PaymentsRoute") },
  // Not in the spec: the site's rules, the moderators' queue and the public moderation log (docs/product.md, "Moderation").
  { path: "/rules", access: "public", ...chunk(moderation, "RulesRoute") },
  { path: "/moderation", access: "moderator", ...chunk(moderation, "ModerationRoute") },
  { path: "/moderation/log", access: "public", ...chunk(moderation, "ModerationLogRoute") },
  { path: "/decisions", access: "user", ...chunk(moderation, "DecisionsRoute") },
  { path: "/appeal/:actionId/:token", access: "public", ...chunk(moderation, "AppealByLinkRoute") },
  // Not in the spec: cookie-free stats (docs/product.md, "Stats").
  { path: "/stats", access: "user", ...chunk(stats, "StatsRoute") },
  { path: "/stats/posts/:id", access: "user", ...chunk(stats, "PostStatsRoute") },
  { path: "/admin/stats", access: "admin", ...chunk(stats, "SiteStatsRoute") },
  // Not in the spec: readers subscribed by e-mail without an account (docs/product.md, "Subscribing by e-mail").
  { path: "/subscriptions/confirm/:token", access: "public", ...chunk(subscriptions, "ConfirmSubscriptionRoute") },
  {
    path: "/subscriptions/unsubscribe/:id/:token",
    access: "public",
    ...chunk(subscriptions, "SubscriberUnsubscribeRoute"),
  },
];

/**
 * The screen whose path matches `pathname`, as react-router matches it: case-insensitive, `:name` one segment.
 */
export function screenAt(pathname: string): Screen | undefined {
  return SCREENS.find(({ path }) => path !== "/" && pathMatches(path, pathname));
}
