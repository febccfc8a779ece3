import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ApiToken } from "#shared/schemas/tokens.ts";
import { withApiServer } from "./api-server.ts";
import { renderApp } from "./render-app.tsx";

const server = withApiServer();
let admin: Awaited<ReturnType<typeof server.signUp>>;
beforeAll(async () => {
  // The test server's first account is its admin.
  admin = await server.signUp();
});

describe("API tokens", () => {
  afterEach(() => vi.restoreAllMocks());

  it("makes a token with the chosen scopes, shows its secret once, lists it and revokes it after asking", async () => {
    const user = await server.signUp();
    await renderApp("/settings/tokens", user);
    expect(await screen.findByText("You have no tokens.")).toBeInTheDocument();
    // A user is offered no staff scope.
    expect(screen.queryByRole("checkbox", { name: /^moderation/ })).toBeNull();
    expect(screen.queryByRole("checkbox", { name: /^admin/ })).toBeNull();

    await userEvent.click(screen.getByRole("button", { name: "Create token" }));
    expect(await screen.findByText("Give the token a name")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Name"), "Publishing script");
    await userEvent.click(screen.getByRole("checkbox", { name: /^posts:write/ }));
    await userEvent.selectOptions(screen.getByLabelText("Expires"), "30");
    await userEvent.click(screen.getByRole("button", { name: "Create token" }));

    const secret = await screen.findByTestId("new-token");
    expect(secret.textContent).toMatch(/^pcn_[A-Za-z0-9_-]{43}$/);
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    await userEvent.click(screen.getByRole("button", { name: "Copy token" }));
    expect(writeText).toHaveBeenCalledWith(secret.textContent);
    expect(await screen.findByText("The token is on your clipboard.")).toBeInTheDocument();

    const list = screen.getByRole("region", { name: "Your tokens" });
    const item = await within(list).findByText("Publishing script");
    const row = item.closest("li") as HTMLElement;
    expect(within(row).getByText("posts:read")).toBeInTheDocument();
    expect(within(row).getByText("posts:write")).toBeInTheDocument();
    expect(row.textContent).toContain("never used");
    // The secret is gone once dismissed; the list never had it.
    await userEvent.click(screen.getByRole("button", { name: "Done" }));
    expect(screen.queryByTestId("new-token")).toBeNull();
    expect(document.body.textContent).not.toContain(secret.textContent);

    const saidNo = vi.spyOn(window, "confirm").mockReturnValueOnce(false);
    await userEvent.click(within(row).getByRole("button", { name: "Revoke Publishing script" }));
    expect(saidNo).toHaveBeenCalled();
    expect(await server.call<{ items: ApiToken[] }>("GET", "/api/tokens", undefined, user.token)).toMatchObject({
      items: [{ name: "Publishing script" }],
    });
    vi.spyOn(window, "confirm").mockReturnValueOnce(true);
    await userEvent.click(within(row).getByRole("button", { name: "Revoke Publishing script" }));
    await waitFor(() => expect(screen.getByText("You have no tokens.")).toBeInTheDocument());
  });

  it("offers an admin the staff scopes", async () => {
    expect(admin.isAdmin).toBe(true);
    await renderApp("/settings/tokens", admin);
    expect(await screen.findByRole("checkbox", { name: /^admin/ })).toBeInTheDocument();
    expect(screen.getByRole("checkbox", { name: /^moderation/ })).toBeInTheDocument();
  });
});
