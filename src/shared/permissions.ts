/**
 * Who may open a screen (docs/specification.md §Roles and permissions); the server enforces the same rules on its
 * calls.
 */
export type Access = "public" | "user" | "moderator" | "admin";

/**
 * What a role may do beyond a user, as named strings the server checks (plugins/auth.ts `requirePermission`): a
 * moderator works the queue; an admin also keeps the rules and names moderators.
 */
export const PERMISSIONS = ["moderate", "manage-rules", "manage-roles"] as const;
export type Permission = (typeof PERMISSIONS)[number];

export interface Viewer {
  isAdmin: boolean;
  isModerator?: boolean;
}

export function permissionsOf(viewer: Viewer | null): readonly Permission[] {
  if (!viewer) return [];
  if (viewer.isAdmin) return PERMISSIONS;
  return viewer.isModerator ? ["moderate"] : [];
}

export const can = (viewer: Viewer | null, permission: Permission) => permissionsOf(viewer).includes(permission);

export function canAccess(viewer: Viewer | null, access: Access): boolean {
  if (access === "public") return true;
  if (!viewer) return false;
  if (access === "moderator") return can(viewer, "moderate");
  return access === "user" || viewer.isAdmin;
}
