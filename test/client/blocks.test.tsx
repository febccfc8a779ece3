import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeAll, describe, expect, it } from "vitest";
import type { Relations } from "#shared/schemas/blocks.ts";
import { appealToken } from "../../src/server/services/moderation/appeal-links.ts";
import { TEST_JWT_SECRET } from "../support/app.ts";
import { withApiServer } from "./api-server.ts";
import { renderApp } from "./render-app.tsx";

const server = withApiServer();
let admin: Awaited<ReturnType<typeof server.signUp>>;
beforeAll(async () => {
  // The test server's first account is its admin, who decides here as a moderator would.
  admin = await server.signUp();
});

describe("blocks, mutes and appeals", () => {
  it("lists whom the user blocked, unblocks them, and saves muted words", async () => {
    const user = await server.signUp();
    const pest = await server.signUp({ firstName: "Pesky", lastName: "Person" });
    await server.call("POST", `/api/users/block/${pest.id}`, undefined, user.token);
    await renderApp("/settings/blocks", user);
    const blocked = await screen.findByRole("region", { name: "Blocked" });
    expect(within(blocked).getByText("Pesky Person")).toBeInTheDocument();
    await userEvent.click(within(blocked).getByRole("button", { name: "Unblock" }));
    expect(await within(blocked).findByText(/You have blocked no one/)).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText("Words and phrases, one a line"), "Casino{Enter}  crypto giveaway ");
    await userEvent.click(screen.getByRole("button", { name: "Save muted words" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Muted words saved.");
    const saved = await server.call<Relations>("GET", "/api/me/relations", undefined, user.token);
    expect(saved).toMatchObject({ blocked: [], words: ["casino", "crypto giveaway"] });
  });

  it("appeals a decision from the link in its mail, without signing in, and refuses a forged link in words", async () => {
    const writer = await server.signUp();
    await server.call(
      "POST",
      "/api/moderation/actions",
      { target: { kind: "user", id: writer.id }, action: "warn", rule: "spam", note: "Too many links" },
      admin.token,
    );
    const { decisions } = await server.call<{ decisions: { id: string }[] }>(
      "GET",
      "/api/moderation/mine",
      undefined,
      writer.token,
    );
    const actionId = decisions[0]?.id as string;
    await renderApp(`/appeal/${actionId}/${appealToken({ jwtSecret: TEST_JWT_SECRET }, actionId)}`, null);
    expect(await screen.findByText("Rule: Spam")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Why is this decision wrong?"), "My links were my own sources.");
    await userEvent.click(screen.getByRole("button", { name: "Appeal" }));
    await waitFor(() => expect(screen.getByText("Appeal waiting for another moderator")).toBeInTheDocument());

    await renderApp(`/appeal/${actionId}/${"0".repeat(32)}`, null);
    expect(await screen.findByText("This appeal link is not valid")).toBeInTheDocument();
  });
});
