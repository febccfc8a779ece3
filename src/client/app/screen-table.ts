import { SCREEN_PATHS, type ScreenPath, screenPathAt } from "#shared/screens.ts";

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
const tokens = () => import("./routes/tokens.tsx");

/** A screen's chunk and the name it exports the screen under (checked against the module). */
const chunk = <M, K extends keyof M & string>(load: () => Promise<M>, name: K) => ({
  load: load as () => Promise<Record<string, unknown>>,
  name,
});

export interface Screen extends ScreenPath {
  load?: () => Promise<Record<string, unknown>>;
  name?: string;
}

/** Each screen's chunk, by its path in the shared table (home and not-found are in the main bundle). */
const CHUNKS: Record<string, ReturnType<typeof chunk>> = {
  "/register": chunk(auth, "RegisterRoute"),
  "/login": chunk(auth, "LoginRoute"),
  "/posts": chunk(posts, "PostsRoute"),
  "/posts/:id": chunk(post, "PostRoute"),
  "/search": chunk(search, "SearchRoute"),
  "/password-reset-token": chunk(password, "PasswordResetRequestRoute"),
  "/reset-password/:token": chunk(password, "ResetPasswordRoute"),
  "/create-post": chunk(createPost, "CreatePostRoute"),
  "/update-post/:id": chunk(edit, "EditPostRoute"),
  "/update-comment/:id": chunk(edit, "EditCommentRoute"),
  "/profile/:id": chunk(account, "ProfileRoute"),
  "/upload-profile-photo": chunk(account, "UploadPhotoRoute"),
  "/update-profile/:id": chunk(account, "UpdateProfileRoute"),
  "/verify-account/:token": chunk(password, "VerifyAccountRoute"),
  "/update-password": chunk(account, "ChangePasswordRoute"),
  "/add-category": chunk(admin, "AddCategoryRoute"),
  "/category-list": chunk(admin, "CategoryListRoute"),
  "/update-category/:id": chunk(admin, "UpdateCategoryRoute"),
  "/users": chunk(admin, "UsersRoute"),
  "/send-mail": chunk(admin, "SendMailRoute"),
  "/Settings": chunk(admin, "SettingsRoute"),
  "/notifications": chunk(notifications, "NotificationsRoute"),
  "/notifications/settings": chunk(notifications, "NotificationSettingsRoute"),
  "/settings/blocks": chunk(account, "BlocksRoute"),
  "/settings/account": chunk(account, "AccountSettingsRoute"),
  "/settings/tokens": chunk(tokens, "TokensRoute"),
  "/settings/webhooks": chunk(account, "WebhooksRoute"),
  "/import": chunk(account, "ImportRoute"),
  "/unsubscribe/:userId/:topic/:token": chunk(notifications, "UnsubscribeRoute"),
  "/payments": chunk(admin, "PaymentsRoute"),
  "/rules": chunk(moderation, "RulesRoute"),
  "/moderation": chunk(moderation, "ModerationRoute"),
  "/moderation/log": chunk(moderation, "ModerationLogRoute"),
  "/decisions": chunk(moderation, "DecisionsRoute"),
  "/appeal/:actionId/:token": chunk(moderation, "AppealByLinkRoute"),
  "/stats": chunk(stats, "StatsRoute"),
  "/stats/posts/:id": chunk(stats, "PostStatsRoute"),
  "/admin/stats": chunk(stats, "SiteStatsRoute"),
  "/subscriptions/confirm/:token": chunk(subscriptions, "ConfirmSubscriptionRoute"),
  "/subscriptions/unsubscribe/:id/:token": chunk(subscriptions, "SubscriberUnsubscribeRoute"),
};

/** docs/specification.md §Routes (`#shared/screens.ts`): every route, who may open it, and its chunk. */
export const SCREENS: Screen[] = SCREEN_PATHS.map((screen) => ({ ...screen, ...CHUNKS[screen.path] }));

/** The screen whose path matches `pathname`, as react-router matches it. */
export function screenAt(pathname: string): Screen | undefined {
  const found = screenPathAt(pathname);
  return found && SCREENS.find((screen) => screen.path === found.path);
}
