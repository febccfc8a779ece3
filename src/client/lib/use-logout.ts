import { useEffect } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { messageSchema } from "#shared/schemas/users.ts";
import { api } from "./api-client.ts";
import { sessionStore, useClearSession } from "./session.ts";

interface LogoutState {
  logout?: boolean;
}

/**
 * Goes home, and the session ends once the user is there (see useFinishLogout). Clearing it before the navigation
 * lands would let a member-only page's guard send the user to /login instead; the router moves in a transition, so
 * the order cannot be forced from here.
 */
export function useLogout() {
  const navigate = useNavigate();
  return () => {
    // The server ends the session (its token stops working); the browser forgets it whatever the answer.
    if (sessionStore.get()) void api("/api/users/logout", messageSchema, { method: "POST" }).catch(() => {});
    navigate("/", { state: { logout: true } satisfies LogoutState });
  };
}

/** Mounted once in the layout: ends the session when a logout navigation arrives. */
export function useFinishLogout() {
  const location = useLocation();
  const navigate = useNavigate();
  const clearSession = useClearSession();
  useEffect(() => {
    if ((location.state as LogoutState | null)?.logout) {
      clearSession();
      navigate(location.pathname, { replace: true, state: null });
    }
  }, [location, navigate, clearSession]);
}
