import { render, screen, waitFor } from "@testing-library/react";
import { getDefaultStore } from "jotai";
import { type Location, MemoryRouter, useLocation } from "react-router-dom";
import { expect } from "vitest";
import type { Session } from "#shared/schemas/session.ts";
import { AppProvider } from "../../src/client/app/provider.tsx";
import { AppRoutes } from "../../src/client/app/routes.tsx";
import { sessionAtom } from "../../src/client/lib/session.ts";

export function buildSession(overrides: Partial<Session> = {}): Session {
  return {
    _id: "u1",
    id: "u1",
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
    profilePhoto: null,
    isAdmin: false,
    isModerator: false,
    isVerified: true,
    walletAddress: null,
    loginMethod: "password",
    token: "token",
    ...overrides,
  };
}

/** Where the app is: `state.location` follows the router's address, as a data router's `state` would. */
interface RouterProbe {
  state: { location: Location };
}

function FollowLocation({ into }: { into: RouterProbe }) {
  into.state.location = useLocation();
  return null;
}

/** Renders the whole app at `path`, signed in as `session` (null: a visitor), once its lazily loaded screen is in. */
export async function renderApp(path: string, session: Session | null = null) {
  getDefaultStore().set(sessionAtom, session);
  const router = { state: {} } as RouterProbe;
  const view = render(
    <AppProvider>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <FollowLocation into={router} />
      </MemoryRouter>
    </AppProvider>,
  );
  // A screen's first load in a test file also transforms its modules, which can take seconds on a busy machine.
  await waitFor(() => expect(screen.queryByLabelText("Loading page")).toBeNull(), { timeout: 10_000 });
  return { ...view, router };
}
