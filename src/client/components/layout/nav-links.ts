import type { Session } from "#shared/schemas/session.ts";

export interface NavLink {
  label: string;
  to: string;
}

/** The spec's three navigation bars, word for word (docs/specification.md §Navigation bars). */
export function navLinksFor(session: Session | null): NavLink[] {
  const common = [
    { label: "Home", to: "/" },
    { label: "Create", to: "/create-post" },
    { label: "Blogs", to: "/posts" },
  ];
  if (!session) return [...common, { label: "Register", to: "/register" }, { label: "Login", to: "/login" }];
  if (!session.isAdmin) return [...common, { label: "Profile", to: `/profile/${session.id}` }];
  return [
    ...common,
    { label: "Authors", to: "/users" },
    { label: "Add Category", to: "/add-category" },
    { label: "Category List", to: "/category-list" },
  ];
}

export function avatarMenuFor(session: Session): NavLink[] {
  const items = [
    { label: "Your Profile", to: `/profile/${session.id}` },
    // Not in the spec: cookie-free stats (docs/product.md, "Stats").
    { label: "Stats", to: "/stats" },
    { label: "Change your password", to: "/update-password" },
    // Not in the spec: how notifications reach the user (docs/product.md, "Following, notifications and tips").
    { label: "Notification settings", to: "/notifications/settings" },
    { label: "Blocks and mutes", to: "/settings/blocks" },
    { label: "Import", to: "/import" },
    // Not in the spec: signed events to other systems (docs/webhooks.md).
    { label: "Webhooks", to: "/settings/webhooks" },
    { label: "Your data and account", to: "/settings/account" },
    // Not in the spec: personal access tokens (docs/tokens.md).
    { label: "API tokens", to: "/settings/tokens" },
  ];
  // Not in the spec: the moderators' queue (docs/product.md, "Moderation").
  const moderating = session.isAdmin || session.isModerator ? [{ label: "Moderation", to: "/moderation" }] : [];
  return session.isAdmin
    ? [
        ...items,
        { label: "Settings", to: "/Settings" },
        { label: "Payments", to: "/payments" },
        { label: "Site stats", to: "/admin/stats" },
        ...moderating,
      ]
    : [...items, ...moderating];
}
