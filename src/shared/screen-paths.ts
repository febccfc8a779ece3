/**
 * Every page address the client has a screen for (app/screen-table.ts lists each with its chunk; a unit test keeps
 * the two the same). The server answers any other page address 404, with the app's "not found" screen.
 */
export const SCREEN_PATHS = [
  "/",
  "/register",
  "/login",
  "/posts",
  "/posts/:id",
  "/search",
  "/password-reset-token",
  "/reset-password/:token",
  "/create-post",
  "/update-post/:id",
  "/update-comment/:id",
  "/profile/:id",
  "/upload-profile-photo",
  "/update-profile/:id",
  "/verify-account/:token",
  "/update-password",
  "/add-category",
  "/category-list",
  "/update-category/:id",
  "/users",
  "/send-mail",
  "/Settings",
  "/notifications",
  "/notifications/settings",
  "/settings/blocks",
  "/settings/account",
  "/import",
  "/unsubscribe/:userId/:topic/:token",
  "/payments",
  "/rules",
  "/moderation",
  "/moderation/log",
  "/decisions",
  "/appeal/:actionId/:token",
  "/stats",
  "/stats/posts/:id",
  "/admin/stats",
  "/subscriptions/confirm/:token",
  "/subscriptions/unsubscribe/:id/:token",
] as const;

/** Whether `path` (a pattern) matches `pathname` as react-router matches it: case-insensitive, `:name` one segment. */
export function pathMatches(path: string, pathname: string) {
  const parts = pathname.toLowerCase().replace(/\/+$/, "").split("/");
  const pattern = path.toLowerCase().replace(/\/+$/, "").split("/");
  return (
    pattern.length === parts.length &&
    pattern.every((segment, index) => (segment.startsWith(":") ? parts[index] !== "" : segment === parts[index]))
  );
}

/** Whether the client has a screen at `pathname`. */
export const isScreenPath = (pathname: string) => SCREEN_PATHS.some((path) => pathMatches(path, pathname));
