import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { buildRegistration } from "../support/users.ts";
import { withApiServer } from "./api-server.ts";
import { buildSession, renderApp } from "./render-app.tsx";

const server = withApiServer();

describe("Login", () => {
  it("shows each error only after its field was touched", async () => {
    await renderApp("/login");
    expect(screen.queryByText("Email is required")).not.toBeInTheDocument();
    await userEvent.click(screen.getByLabelText("Email"));
    expect(screen.queryByText("Email is required")).not.toBeInTheDocument();
    await userEvent.click(screen.getByLabelText("Password"));
    expect(await screen.findByText("Email is required")).toBeInTheDocument();
    expect(screen.queryByText("Password is required")).not.toBeInTheDocument();
    await userEvent.tab();
    expect(await screen.findByText("Password is required")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Forget Password ?" })).toHaveAttribute("href", "/password-reset-token");
  });

  it("shows the server's message in red and keeps what was typed", async () => {
    await renderApp("/login");
    await userEvent.type(screen.getByLabelText("Email"), "nobody@example.com");
    await userEvent.type(screen.getByLabelText("Password"), "wrong password");
    await userEvent.click(screen.getByRole("button", { name: "Login" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid email or password");
    expect(screen.getByLabelText("Email")).toHaveValue("nobody@example.com");
  });

  it("stores the session as userInfo and goes to the profile", async () => {
    const user = await server.signUp();
    const { router } = await renderApp("/login");
    await userEvent.type(screen.getByLabelText("Email"), user.email);
    await userEvent.type(screen.getByLabelText("Password"), user.password);
    const button = screen.getByRole("button", { name: "Login" });
    await userEvent.click(button);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/profile/${user.id}`));
    expect(JSON.parse(localStorage.getItem("userInfo") ?? "null")).toMatchObject({
      id: user.id,
      email: user.email,
      token: expect.any(String),
    });
  });

  it("sends a signed-in user to their profile", async () => {
    const { router } = await renderApp("/login", buildSession({ id: "u7", _id: "u7" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/profile/u7"));
  });
});

describe("Register", () => {
  it.each([
    ["First Name", "First Name is required"],
    ["Last Name", "Last Name is required"],
    ["Email", "Email is required"],
    ["Password", "Password is required"],
    ["Wallet Address", "Wallet Address is required"],
  ])("says %s is required once touched", async (label, message) => {
    await renderApp("/register");
    await userEvent.click(screen.getByLabelText(label));
    await userEvent.tab();
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it("checks the wallet address format", async () => {
    await renderApp("/register");
    await userEvent.type(screen.getByLabelText("Wallet Address"), "0x1234");
    await userEvent.tab();
    expect(await screen.findByText("Wallet Address must be exactly 42 characters long")).toBeInTheDocument();
  });

  it("shows 'loading please wait...' while sending, then goes to /login", async () => {
    const input = buildRegistration();
    const { router } = await renderApp("/register");
    await userEvent.type(screen.getByLabelText("First Name"), input.firstName);
    await userEvent.type(screen.getByLabelText("Last Name"), input.lastName);
    await userEvent.type(screen.getByLabelText("Email"), input.email);
    await userEvent.type(screen.getByLabelText("Password"), input.password);
    await userEvent.type(screen.getByLabelText("Wallet Address"), input.walletAddress);
    await userEvent.click(screen.getByRole("button", { name: "Register" }));
    expect(await screen.findByRole("button", { name: "loading please wait..." })).toBeDisabled();
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
  });

  it("shows the server's error in the heading area", async () => {
    const existing = await server.signUp();
    await renderApp("/register");
    const input = buildRegistration({ email: existing.email });
    for (const [label, value] of [
      ["First Name", input.firstName],
      ["Last Name", input.lastName],
      ["Email", input.email],
      ["Password", input.password],
      ["Wallet Address", input.walletAddress],
    ]) {
      await userEvent.type(screen.getByLabelText(label as string), value as string);
    }
    await userEvent.click(screen.getByRole("button", { name: "Register" }));
    expect(
      await screen.findByRole("heading", { level: 1, name: "An account with this email already exists" }),
    ).toBeInTheDocument();
  });
});
