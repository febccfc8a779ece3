import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeAll, describe, expect, it } from "vitest";
import { withApiServer } from "./api-server.ts";
import { renderApp } from "./render-app.tsx";

const server = withApiServer();
type Session = Awaited<ReturnType<typeof server.signUp>>;
let admin: Session;
let author: Session;
let post: { id: string };

beforeAll(async () => {
  admin = await server.signUp({ firstName: "Ada" });
  author = await server.signUp({ firstName: "Linus", lastName: "Writer" });
  await server.call("POST", "/api/category", { title: "Rust" }, admin.token);
  await server.call("POST", "/api/category", { title: "Empty topic" }, admin.token);
  post = await server.call(
    "POST",
    "/api/posts",
    {
      title: "Ownership explained",
      description: "<h2>Borrowing</h2><p>Safe <strong>memory</strong></p><img src=x onerror=alert(1)>",
      category: "Rust",
      isFeatured: "false",
    },
    author.token,
  );
  await server.call(
    "POST",
    "/api/posts",
    { title: "Second post", description: "<p>More</p>", category: "Rust", isFeatured: "false" },
    author.token,
  );
  await server.call("POST", "/api/comments", { postId: post.id, description: "Great read" }, admin.token);
}, 60_000);

describe("the posts list", () => {
  it("shows the heading, the categories and the post cards", async () => {
    await renderApp("/posts");
    expect(screen.getByRole("heading", { level: 1, name: "Latest Blogs" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "View All Blogs" })).toBeInTheDocument();
    const sidebar = within(await screen.findByRole("navigation", { name: "Categories" }));
    expect(await sidebar.findByRole("button", { name: "Rust" })).toBeInTheDocument();
    const card = (await screen.findByRole("link", { name: "Ownership explained" })).closest("article") as HTMLElement;
    expect(within(card).getByRole("link", { name: "Read More.." })).toHaveAttribute("href", `/posts/${post.id}`);
    expect(within(card).getByRole("link", { name: "Linus Writer" })).toHaveAttribute("href", `/profile/${author.id}`);
    expect(within(card).getByLabelText("0 likes")).toBeInTheDocument();
    expect(within(card).getByLabelText("0 views")).toBeInTheDocument();
  });

  it("filters by a category and says 'No Blog Found' when empty", async () => {
    await renderApp("/posts");
    await userEvent.click(await screen.findByRole("button", { name: "Empty topic" }));
    expect(await screen.findByText("No Blog Found")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "View All Blogs" }));
    expect(await screen.findByRole("link", { name: "Second post" })).toBeInTheDocument();
  });

  it("shows the not-found page for a category that does not exist, as the server does", async () => {
    await renderApp(`/posts?category=${encodeURIComponent("<b>No such</b> topic")}`);
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeInTheDocument();
    expect(screen.queryByText("No such", { exact: false })).not.toBeInTheDocument();
    await renderApp("/posts?category=rust");
    expect(await screen.findByRole("link", { name: "Ownership explained" })).toBeInTheDocument();
  });

  it("lets a signed-in reader like a post, and the list reloads with the count", async () => {
    const reader = await server.signUp();
    await renderApp("/posts", reader);
    const card = (await screen.findByRole("link", { name: "Second post" })).closest("article") as HTMLElement;
    await userEvent.click(within(card).getByRole("button", { name: /likes, like this post/ }));
    expect(await within(card).findByRole("button", { name: "1 likes, like this post" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
  });
});

describe("the post detail", () => {
  it("shows the post with its rich text, sanitised, and its comments", async () => {
    await renderApp(`/posts/${post.id}`);
    expect(await screen.findByRole("heading", { level: 1, name: "Ownership explained" })).toBeInTheDocument();
    // A body the browser shows itself waits for DOMPurify's chunk.
    expect(await screen.findByRole("heading", { level: 2, name: "Borrowing" })).toBeInTheDocument();
    expect(document.querySelector("img[onerror]")).toBeNull();
    expect(screen.getByRole("heading", { name: "1 comment" })).toBeInTheDocument();
    expect(screen.getByText("Great read")).toBeInTheDocument();
    expect(screen.queryByLabelText("Add a comment")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Delete post" })).not.toBeInTheDocument();
  });

  it("lets a signed-in reader comment, and the post reloads with it", async () => {
    const reader = await server.signUp({ firstName: "Rita" });
    await renderApp(`/posts/${post.id}`, reader);
    await userEvent.click(await screen.findByLabelText("Add a comment"));
    await userEvent.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByText("Description is required")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Add a comment"), "Thanks for this");
    await userEvent.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByText("Thanks for this")).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "2 comments" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Delete comment" })).toBeInTheDocument();
  });

  it("shows edit and delete to the author only", async () => {
    await renderApp(`/posts/${post.id}`, author);
    expect(await screen.findByRole("link", { name: "Edit post" })).toHaveAttribute("href", `/update-post/${post.id}`);
    expect(screen.getByRole("button", { name: "Delete post" })).toBeInTheDocument();
  });

  it("says so when the post does not exist", async () => {
    await renderApp("/posts/00000000-0000-4000-8000-000000000000");
    expect(await screen.findByRole("heading", { level: 1, name: "Post not found" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to all posts" })).toHaveAttribute("href", "/posts");
  });
});
