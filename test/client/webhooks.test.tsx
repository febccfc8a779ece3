import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Webhook } from "#shared/schemas/webhooks.ts";
import { withApiServer } from "./api-server.ts";
import { renderApp } from "./render-app.tsx";

const server = withApiServer();

describe("webhooks", () => {
  it("adds a webhook, shows its secret once, pauses it and sends a test", async () => {
    await server.signUp();
    const author = await server.signUp();
    await renderApp("/settings/webhooks", author);
    await userEvent.type(await screen.findByLabelText("Address (https)"), "http://127.0.0.1:9/hook");
    await userEvent.click(screen.getByLabelText("comment.created"));
    // An author is offered no site event.
    expect(screen.queryByLabelText("user.registered")).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Add webhook" }));
    expect(await screen.findByText(/^whsec_/)).toBeInTheDocument();

    const list = await screen.findByRole("list", { name: "Your webhooks" });
    expect(within(list).getByText("http://127.0.0.1:9/hook")).toBeInTheDocument();
    expect(within(list).getByText("post.published, comment.created")).toBeInTheDocument();
    await userEvent.click(within(list).getByRole("button", { name: "Pause" }));
    expect(await within(list).findByText("Paused")).toBeInTheDocument();
    const { items } = await server.call<{ items: Webhook[] }>("GET", "/api/webhooks", undefined, author.token);
    expect(items).toEqual([expect.objectContaining({ paused: true })]);

    await userEvent.click(within(list).getByRole("button", { name: "Send a test" }));
    await userEvent.click(within(list).getByRole("button", { name: "Deliveries" }));
    expect(await within(list).findByText("webhook.test")).toBeInTheDocument();
  });
});
