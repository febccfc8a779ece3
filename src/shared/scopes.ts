/**
 * What a personal access token may reach (docs/tokens.md). A route names the one scope it needs in its options,
 * `config: { scope }`; a route naming none refuses every token.
 */
export const SCOPES = [
  "posts:read",
  "posts:write",
  "comments:write",
  "stats:read",
  "subscribers:read",
  "webhooks:write",
  "moderation",
  "admin",
] as const;
export type Scope = (typeof SCOPES)[number];

/** Scopes only staff may grant: a token keeps them only while its owner holds the role. */
export const STAFF_SCOPES = { moderation: "moderate", admin: "manage-roles" } as const satisfies Partial<
  Record<Scope, "moderate" | "manage-roles">
>;

export const SCOPE_LABELS: Record<Scope, string> = {
  "posts:read": "Read your posts, drafts and scheduled posts",
  "posts:write": "Create, edit, publish and delete your posts",
  "comments:write": "Comment and reply, and moderate comments on your posts",
  "stats:read": "Read your stats",
  "subscribers:read": "Read your subscriber counts and list",
  "webhooks:write": "Manage your webhooks",
  moderation: "Work the moderation queue (moderators)",
  admin: "Administer the site (admins)",
};

export const isStaffScope = (scope: Scope): scope is keyof typeof STAFF_SCOPES => scope in STAFF_SCOPES;

/** The prefix every token starts with, so a leaked one is recognisable by secret scanners. */
export const TOKEN_PREFIX = "pcn_";
