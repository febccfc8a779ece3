import { render } from "@testing-library/react";
import { getDefaultStore } from "jotai";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { AppProvider } from "../../src/client/app/provider.tsx";
import { routes } from "../../src/client/app/routes.tsx";
import { sessionAtom } from "../../src/client/features/auth/session.ts";
import type { Session } from "../../src/shared/schemas/session.ts";

export function buildSession(overrides: Partial<Session> = {}): Session {
  return {
    _id: "u1",
    id: "u1",
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
    profilePhoto: null,
    isAdmin: false,
    isVerified: true,
    walletAddress: null,
    token: "token",
    ...overrides,
  };
}

/** Renders the whole app at `path`, signed in as `session` (null: a visitor). */
export function renderApp(path: string, session: Session | null = null) {
  getDefaultStore().set(sessionAtom, session);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router };
}
