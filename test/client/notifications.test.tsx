import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeAll, describe, expect, it } from "vitest";
import { unsubscribeToken } from "../../src/server/services/notifications/unsubscribe.ts";
import { TEST_JWT_SECRET } from "../support/app.ts";
import { withApiServer } from "./api-server.ts";
import { renderApp } from "./render-app.tsx";

const server = withApiServer();

const CATEGORY = "Bells";
beforeAll(async () => {
  // The test server's first account is its admin, who makes the category the posts here go in.
  const admin = await server.signUp();
  await server.call("POST", "/api/category", { title: CATEGORY }, admin.token);
});

/** An author with a post, and a reader. */
async function authorWithPost(title: string) {
  const [author, reader] = [await server.signUp({ firstName: "Ana", lastName: "Author" }), await server.signUp()];
  const post = await server.call<{ id: string }>(
    "POST",
    "/api/posts",
    { title, description: "<p>Body</p>", category: CATEGORY, isFeatured: false },
    author.token,
  );
  return { author, reader, post };
}

describe("notifications", () => {
  it("shows the unread count on the bell, lists what happened, and marks it all read", async () => {
    const { author, reader, post } = await authorWithPost("Bells and whistles");
    await server.call("PUT", "/api/posts/likes", { postId: post.id }, reader.token);
    await renderApp("/notifications", author);
    expect(await screen.findByRole("link", { name: "Notifications, 1 unread" })).toHaveAttribute(
      "href",
      "/notifications",
    );
    const list = await screen.findByRole("list", { name: "Notifications" });
    const entry = await within(list).findByRole("link", { name: /liked your post “Bells and whistles”/ });
    expect(entry).toHaveAttribute("href", `/posts/${post.id}`);
    expect(within(list).getByText("Unread.", { exact: false })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Mark all as read" }));
    expect(await screen.findByRole("link", { name: "Notifications" })).toBeInTheDocument();
    await waitFor(() => expect(within(list).queryByText("Unread.", { exact: false })).toBeNull());
  });

  it("saves how each kind reaches the user", async () => {
    const user = await server.signUp();
    await renderApp("/notifications/settings", user);
    const likes = await screen.findByRole("radiogroup", { name: "Likes on your posts" });
    expect(within(likes).getByRole("radio", { name: "In the app only" })).toBeChecked();
    await userEvent.click(within(likes).getByText("Daily digest"));
    expect(await screen.findByText("Saved.")).toBeInTheDocument();
    const saved = await server.call<{ settings: { topic: string; delivery: string }[] }>(
      "GET",
      "/api/notifications/settings",
      undefined,
      user.token,
    );
    expect(saved.settings.find((setting) => setting.topic === "like")?.delivery).toBe("digest");
  });

  it("turns mail off from an unsubscribe link without logging in, says what, and undoes it", async () => {
    const user = await server.signUp();
    const token = unsubscribeToken(TEST_JWT_SECRET, user.id, "comment");
    await renderApp(`/unsubscribe/${user.id}/comment/${token}`, null);
    expect(
      await screen.findByText(/you will no longer receive e-mail for “Comments on your posts”/),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Undo" }));
    expect(await screen.findByText(/is back to e-mail at once/)).toBeInTheDocument();
  });

  it("refuses a forged unsubscribe link in words", async () => {
    const user = await server.signUp();
    await renderApp(`/unsubscribe/${user.id}/comment/${"0".repeat(32)}`, null);
    expect(await screen.findByText("This unsubscribe link is not valid")).toBeInTheDocument();
  });
});

describe("the Following feed", () => {
  it("offers signed-in readers a Following tab with the posts of the authors they follow", async () => {
    const { author, reader } = await authorWithPost("From someone I follow");
    await server.call("PUT", "/api/users/follow", { followId: author.id }, reader.token);
    await renderApp("/posts?feed=following", reader);
    const tabs = await screen.findByRole("navigation", { name: "Feeds" });
    expect(within(tabs).getByRole("link", { name: "Following" })).toHaveAttribute("aria-current", "page");
    expect(await screen.findByRole("link", { name: "From someone I follow" })).toBeInTheDocument();
    const stranger = await server.signUp();
    await renderApp("/posts?feed=following", stranger);
    // An empty feed says why and offers the authors of the latest posts.
    expect(
      await screen.findByText(/^Nothing here yet: this feed shows the posts of the authors you follow\./),
    ).toBeInTheDocument();
    const suggestion = await waitFor(() => {
      const row = screen
        .getAllByRole("link", { name: "Ana Author" })
        .map((link) => link.closest("li"))
        .find((item) => item !== null);
      if (!row) throw new Error("no suggestion yet");
      return row;
    });
    expect(within(suggestion).getByRole("button", { name: /^Follow/ })).toBeInTheDocument();
  });
});
