/** Who may open a screen (spec §6 "Roles and permissions"); the server enforces the same rules on its calls. */
export type Access = "public" | "user" | "admin";

export interface Viewer {
  isAdmin: boolean;
}

export function canAccess(viewer: Viewer | null, access: Access): boolean {
  if (access === "public") return true;
  if (!viewer) return false;
  return access === "user" || viewer.isAdmin;
}
