import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router-dom";
import { type Access, canAccess } from "#shared/permissions.ts";
import type { LoginReturn } from "../../../lib/login-return.ts";
import { useSession } from "../../../lib/session.ts";
import { useHydrated } from "../../../lib/use-hydrated.tsx";

export const LOG_IN_FIRST = "Log in to go on to that page.";

/**
 * Visitors and non-admins who may not see a screen go to /login (docs/specification.md §Routes). A screen the server
 * rendered for anyone (Create Blog's empty form) shows until the page is hydrated and the browser knows who is
 * signed in.
 */
export function RequireAccess({ access, children }: { access: Access; children: ReactNode }) {
  const session = useSession();
  const hydrated = useHydrated();
  const location = useLocation();
  if (hydrated && !canAccess(session, access)) {
    // A visitor comes back here once logged in; a signed-in user who may not see it goes on to their profile.
    const back: LoginReturn | undefined = session
      ? undefined
      : { from: location.pathname + location.search, note: LOG_IN_FIRST };
    return <Navigate to="/login" replace state={back} />;
  }
  return children;
}
