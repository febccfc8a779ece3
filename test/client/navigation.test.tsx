import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { buildSession, renderApp } from "./render-app.tsx";

// The bar's links, also where a narrow window folds them into the menu (jsdom's is 1024 px: the admin's fold below xl).
const mainNavLinks = () =>
  within(screen.getByRole("navigation", { name: "Main" }))
    .getAllByRole("listitem", { hidden: true })
    .map((item) => item.textContent);

describe("navigation bars", () => {
  it("shows a visitor the signed-out bar with Login and New Blog buttons", async () => {
    await renderApp("/");
    expect(mainNavLinks()).toEqual(["Home", "Create", "Blogs", "Register", "Login"]);
    expect(screen.getByRole("link", { name: "New Blog" })).toHaveAttribute("href", "/create-post");
    expect(screen.queryByRole("button", { name: "Logout" })).not.toBeInTheDocument();
  });

  it("shows a signed-in user Profile, New Blog, Logout and the avatar menu", async () => {
    await renderApp("/", buildSession({ id: "u42", _id: "u42" }));
    expect(mainNavLinks()).toEqual(["Home", "Create", "Blogs", "Profile"]);
    expect(screen.getByRole("button", { name: "Logout" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Account menu" }));
    const items = await screen.findAllByRole("menuitem");
    expect(items.map((item) => item.textContent)).toEqual([
      "Your Profile",
      "Stats",
      "Change your password",
      "Notification settings",
      "Blocks and mutes",
      "Import",
      "Webhooks",
      "Your data and account",
      "API tokens",
      // Below lg the bar's Logout is hidden; the account menu has it at every width.
      "Logout",
    ]);
  });

  it("shows an admin Authors, Add Category, Category List, Settings, Payments, Site stats and Moderation after the spec's items", async () => {
    await renderApp("/", buildSession({ isAdmin: true }));
    expect(mainNavLinks()).toEqual(["Home", "Create", "Blogs", "Authors", "Add Category", "Category List"]);
    await userEvent.click(screen.getByRole("button", { name: "Account menu" }));
    const items = await screen.findAllByRole("menuitem");
    expect(items.map((item) => item.textContent)).toEqual([
      "Your Profile",
      "Stats",
      "Change your password",
      "Notification settings",
      "Blocks and mutes",
      "Import",
      "Webhooks",
      "Your data and account",
      "API tokens",
      "Settings",
      "Payments",
      "Site stats",
      "Moderation",
      "Logout",
    ]);
  });

  it("shows a moderator the moderation queue in the account menu, and a reader not", async () => {
    await renderApp("/", buildSession({ isModerator: true }));
    await userEvent.click(screen.getByRole("button", { name: "Account menu" }));
    const items = await screen.findAllByRole("menuitem");
    expect(items.map((item) => item.textContent)).toContain("Moderation");
    expect(mainNavLinks()).toEqual(["Home", "Create", "Blogs", "Profile"]);
  });

  it("logs out from a member-only page: clears userInfo and goes home, not to /login", async () => {
    localStorage.setItem("userInfo", JSON.stringify(buildSession()));
    const { router } = await renderApp("/update-password", buildSession());
    await userEvent.click(screen.getByRole("button", { name: "Logout" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(localStorage.getItem("userInfo")).toBeNull();
  });

  it("logs out: clears userInfo and goes home", async () => {
    localStorage.setItem("userInfo", JSON.stringify(buildSession()));
    const { router } = await renderApp("/posts", buildSession());
    await userEvent.click(screen.getByRole("button", { name: "Logout" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(localStorage.getItem("userInfo")).toBeNull();
    expect(mainNavLinks()).toContain("Register");
    expect(screen.queryByRole("button", { name: "Logout" })).not.toBeInTheDocument();
  });
});

describe("the home page", () => {
  it("shows the landing hero with its Let's Explore link", async () => {
    await renderApp("/");
    expect(
      screen.getByRole("heading", { level: 1, name: "Pen down your ideas by creating a blog" }),
    ).toBeInTheDocument();
    expect(screen.getByText("Welcome to Penchain")).toBeInTheDocument();
    expect(screen.getByText("Your blog must be free from racism and unhealthy words.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Let's Explore" })).toHaveAttribute("href", "/posts");
  });

  it("has a footer with the spec's links", async () => {
    await renderApp("/");
    const footer = within(screen.getByRole("navigation", { name: "Footer" }));
    expect(footer.getAllByRole("link").map((link) => link.textContent)).toEqual([
      "Home",
      "Create Blog",
      "Blogs",
      "Register",
      "Login",
    ]);
  });
});

describe("route access", () => {
  it.each(["/create-post", "/profile/u1", "/update-password", "/verify-account/abc"])(
    "sends a visitor from %s to /login",
    async (path) => {
      const { router } = await renderApp(path);
      await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    },
  );

  it.each(["/users", "/add-category", "/category-list", "/update-category/c1", "/Settings", "/payments"])(
    "sends a regular user from the admin route %s to /login, which forwards a signed-in user to their profile",
    async (path) => {
      const { router } = await renderApp(path, buildSession({ id: "u1", _id: "u1" }));
      await waitFor(() => expect(router.state.location.pathname).toBe("/profile/u1"));
    },
  );

  it("lets an admin open admin routes", async () => {
    const { router } = await renderApp("/users", buildSession({ isAdmin: true }));
    expect(router.state.location.pathname).toBe("/users");
    expect(screen.getByRole("heading", { level: 1, name: "Authors" })).toBeInTheDocument();
  });

  it("lets a visitor open public routes", async () => {
    const { router } = await renderApp("/password-reset-token");
    expect(router.state.location.pathname).toBe("/password-reset-token");
  });

  it("treats an unreadable userInfo as signed out", async () => {
    localStorage.setItem("userInfo", '{"token": 5}');
    await renderApp("/");
    expect(mainNavLinks()).toContain("Register");
  });
});

describe("the unverified banner", () => {
  it("shows for an unverified user only", async () => {
    await renderApp("/", buildSession({ isVerified: false }));
    expect(screen.getByText("Your account is not verified.")).toBeInTheDocument();
  });

  it("stays hidden for a verified user", async () => {
    await renderApp("/", buildSession({ isVerified: true }));
    expect(screen.queryByText("Your account is not verified.")).not.toBeInTheDocument();
  });
});
