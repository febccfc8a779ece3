import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router-dom";
import { type Access, canAccess } from "../../../../shared/permissions.ts";
import { useSession } from "../../../lib/session.ts";

/** Visitors and non-admins who may not see a screen go to /login, as the spec says. */
export function RequireAccess({ access, children }: { access: Access; children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!canAccess(session, access)) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return children;
}
