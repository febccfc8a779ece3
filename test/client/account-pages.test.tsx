import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { withApiServer } from "./api-server.ts";
import { renderApp } from "./render-app.tsx";

const server = withApiServer();

describe("Profile", () => {
  it("shows one's own profile with its badges, counts, empty lists and own buttons", async () => {
    const user = await server.signUp({ firstName: "Olga", lastName: "Own" });
    await renderApp(`/profile/${user.id}`, user);
    expect(await screen.findByRole("heading", { level: 1, name: "Olga Own" })).toBeInTheDocument();
    expect(screen.getByText("Starter Account")).toBeInTheDocument();
    expect(screen.getByText("Unverified Account")).toBeInTheDocument();
    expect(screen.getByText(/^Date Joined: \d{1,2} \w{3} \d{4}$/)).toBeInTheDocument();
    expect(screen.getByText("No Viewer")).toBeInTheDocument();
    expect(screen.getByText("No Post Found")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Upload Photo" })).toHaveAttribute("href", "/upload-profile-photo");
    expect(screen.getByRole("link", { name: "Update Profile" })).toHaveAttribute("href", `/update-profile/${user.id}`);
    expect(screen.getByRole("link", { name: "Send Message" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Follow/ })).not.toBeInTheDocument();
  });

  it("lets another user follow and unfollow, and reloads the counts", async () => {
    const [star, fan] = [await server.signUp({ firstName: "Star" }), await server.signUp()];
    await renderApp(`/profile/${star.id}`, fan);
    await userEvent.click(await screen.findByRole("button", { name: "Follow (0)" }));
    expect(await screen.findByRole("button", { name: "Unfollow" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Unfollow" }));
    expect(await screen.findByRole("button", { name: "Follow (0)" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Upload Photo" })).not.toBeInTheDocument();
  });
});

describe("Update profile", () => {
  it("asks the spec's question, checks fields once touched, saves and returns to the profile", async () => {
    const user = await server.signUp({ firstName: "Uma" });
    const { router } = await renderApp(`/update-profile/${user.id}`, user);
    expect(await screen.findByText("Do you want to update your profile?")).toBeInTheDocument();
    await userEvent.click(screen.getByLabelText("Bio"));
    await userEvent.tab();
    expect(await screen.findByText("Bio is required")).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText("First Name"));
    await userEvent.type(screen.getByLabelText("First Name"), "Ursula");
    await userEvent.type(screen.getByLabelText("Bio"), "Writes about chains");
    await userEvent.click(screen.getByRole("button", { name: "Update" }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/profile/${user.id}`));
    expect(await screen.findByRole("heading", { level: 1, name: /^Ursula / })).toBeInTheDocument();
    expect(screen.getByText("Writes about chains")).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem("userInfo") ?? "{}").firstName).toBe("Ursula");
  });

  it("asks for the current password only when the e-mail changes, and shows the server's refusal", async () => {
    const user = await server.signUp({ firstName: "Eve" });
    const { router } = await renderApp(`/update-profile/${user.id}`, user);
    expect(await screen.findByText("Do you want to update your profile?")).toBeInTheDocument();
    expect(screen.queryByLabelText("Current Password")).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Bio"), "bio");
    await userEvent.clear(screen.getByLabelText("Email"));
    await userEvent.type(screen.getByLabelText("Email"), `moved-${user.email}`);
    const current = await screen.findByLabelText("Current Password");
    await userEvent.type(current, "not my password");
    await userEvent.click(screen.getByRole("button", { name: "Update" }));
    expect(await screen.findByText("Current Password is incorrect")).toBeInTheDocument();
    await userEvent.clear(current);
    await userEvent.type(current, user.password);
    await userEvent.click(screen.getByRole("button", { name: "Update" }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/profile/${user.id}`));
    expect(JSON.parse(localStorage.getItem("userInfo") ?? "{}").email).toBe(`moved-${user.email}`);
  });
});

describe("Change password", () => {
  it("shows the server's refusal of a field beside that field, once", async () => {
    const user = await server.signUp();
    await renderApp("/update-password", user);
    await userEvent.type(await screen.findByLabelText("Password"), "a new long password");
    await userEvent.type(screen.getByLabelText("Current Password"), "a wrong guess");
    await userEvent.click(screen.getByRole("button", { name: "Update Password" }));
    const current = screen.getByLabelText("Current Password");
    await waitFor(() => expect(current).toHaveAttribute("aria-invalid", "true"));
    await waitFor(() => expect(current).toHaveAccessibleErrorMessage("Current Password is incorrect"));
    expect(screen.getAllByText("Current Password is incorrect")).toHaveLength(1);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    // Typing clears it: the field's own rules take over again.
    await userEvent.type(current, "!");
    await waitFor(() => expect(current).not.toHaveAttribute("aria-invalid", "true"));
  });

  it("requires a password, then replaces the session and goes to the profile", async () => {
    const user = await server.signUp();
    const { router } = await renderApp("/update-password", user);
    await userEvent.click(screen.getByRole("button", { name: "Update Password" }));
    expect(await screen.findByText("Password is required")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Password"), "a new long password");
    await userEvent.click(screen.getByRole("button", { name: "Update Password" }));
    expect(await screen.findByText("Current Password is required")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Current Password"), "a wrong guess");
    await userEvent.click(screen.getByRole("button", { name: "Update Password" }));
    expect(await screen.findByText("Current Password is incorrect")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/update-password");
    await userEvent.clear(screen.getByLabelText("Current Password"));
    await userEvent.type(screen.getByLabelText("Current Password"), user.password);
    await userEvent.click(screen.getByRole("button", { name: "Update Password" }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/profile/${user.id}`));
    expect(JSON.parse(localStorage.getItem("userInfo") ?? "{}").token).not.toBe(user.token);
  });
});

// The upload itself runs in the browser journey (test/e2e): jsdom's FormData cannot travel through Node's fetch.
describe("Upload photo", () => {
  it("shows the hint, asks for an image, and takes one chosen file", async () => {
    const user = await server.signUp();
    await renderApp("/upload-profile-photo", user);
    expect(screen.getByText("PNG, JPG, GIF minimum size 400kb uploaded only 1 image")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Upload Photo" }));
    expect(await screen.findByText("Image is required")).toBeInTheDocument();
    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: "#0d9488" } })
      .png()
      .toBuffer();
    await userEvent.upload(
      screen.getByLabelText("Image"),
      new File([new Uint8Array(png)], "me.png", { type: "image/png" }),
    );
    expect(await screen.findByText("me.png")).toBeInTheDocument();
    expect(screen.queryByText("Image is required")).not.toBeInTheDocument();
  });
});

describe("Logout", () => {
  it("ends the session on the server, not just in this browser", async () => {
    const user = await server.signUp();
    const { router } = await renderApp(`/profile/${user.id}`, user);
    await userEvent.click(await screen.findByRole("button", { name: "Logout" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(localStorage.getItem("userInfo")).toBeNull();
    await waitFor(() =>
      expect(server.call("GET", `/api/users/profile/${user.id}`, undefined, user.token)).rejects.toThrow(
        /Your session has ended/,
      ),
    );
  });
});
