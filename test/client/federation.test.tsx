import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeAll, describe, expect, it } from "vitest";
import { withApiServer } from "./api-server.ts";
import { renderApp } from "./render-app.tsx";

const server = withApiServer();
let admin: Awaited<ReturnType<typeof server.signUp>>;

beforeAll(async () => {
  // The test server's first account is its admin.
  admin = await server.signUp({ firstName: "Ada", lastName: "Admin" });
});

describe("handles (issue 21)", () => {
  it("changes the handle in Update profile, shows it on the profile, and names a taken one beside its field", async () => {
    await server.signUp({ firstName: "Taken", lastName: "Name" });
    const user = await server.signUp({ firstName: "Hana", lastName: "Handle" });
    const { router } = await renderApp(`/update-profile/${user.id}`, user);
    const handle = await screen.findByLabelText("Handle");
    expect(handle).toHaveValue("hana-handle");
    await userEvent.type(screen.getByLabelText("Bio"), "bio");
    await userEvent.clear(handle);
    await userEvent.type(handle, "taken-name");
    await userEvent.click(screen.getByRole("button", { name: "Update" }));
    expect(await screen.findAllByText("This handle is taken")).not.toHaveLength(0);
    await userEvent.clear(handle);
    await userEvent.type(handle, "@Hana_Writes");
    await userEvent.click(screen.getByRole("button", { name: "Update" }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/profile/${user.id}`));
    expect(await screen.findByLabelText("Fediverse handle")).toHaveTextContent(/^@hana_writes@/);
  });

  it("refuses a handle that breaks the rules before sending it", async () => {
    const user = await server.signUp({ firstName: "Rule", lastName: "Breaker" });
    await renderApp(`/update-profile/${user.id}`, user);
    const handle = await screen.findByLabelText("Handle");
    await userEvent.clear(handle);
    await userEvent.type(handle, "no spaces allowed");
    await userEvent.type(screen.getByLabelText("Bio"), "bio");
    await userEvent.click(screen.getByRole("button", { name: "Update" }));
    expect(await screen.findByText("A handle is 3–30 lower-case letters, digits, - or _")).toBeInTheDocument();
  });
});

describe("blocked domains", () => {
  it("lets an admin block a domain typed any way, refuses what is not one, and unblocks it", async () => {
    await renderApp("/Settings", admin);
    const domain = await screen.findByLabelText("Domain");
    expect(await screen.findByText("No domain is blocked.")).toBeInTheDocument();
    await userEvent.type(domain, "not a domain!");
    await userEvent.click(screen.getByRole("button", { name: "Block domain" }));
    expect(await screen.findByText("Enter a domain name, like mastodon.example")).toBeInTheDocument();
    await userEvent.clear(domain);
    await userEvent.type(domain, "https://Spam.Example/@someone");
    await userEvent.click(screen.getByRole("button", { name: "Block domain" }));
    const list = await screen.findByRole("list", { name: "Blocked domains" });
    expect(within(list).getByText("spam.example")).toBeInTheDocument();
    await userEvent.click(within(list).getByRole("button", { name: "Unblock" }));
    expect(await screen.findByText("No domain is blocked.")).toBeInTheDocument();
  });
});
