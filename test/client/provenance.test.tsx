import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { getDefaultStore } from "jotai";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { beforeAll, describe, expect, it } from "vitest";
import { revisionToSignAtom } from "../../src/client/features/provenance/pending.ts";
import { askToSignRevision } from "../../src/client/features/provenance/public.tsx";
import { withApiServer } from "./api-server.ts";
import { renderApp } from "./render-app.tsx";

const server = withApiServer();
type Session = Awaited<ReturnType<typeof server.signUp>>;
const wallet = privateKeyToAccount(generatePrivateKey());
let author: Session;
let post: { id: string };

/** The author's wallet verified as the profile page does it (a SIWE message for the test site). */
async function verifyWallet(session: Session) {
  const { nonce } = await server.call<{ nonce: string }>("GET", "/api/auth/siwe/nonce");
  const message = createSiweMessage({
    address: wallet.address,
    chainId: 31337,
    domain: "penchain.test",
    uri: "http://penchain.test",
    nonce,
    version: "1",
    issuedAt: new Date(),
  });
  await server.call(
    "POST",
    "/api/users/wallet",
    { message, signature: await wallet.signMessage({ message }) },
    session.token,
  );
}

const publish = (session: Session, title: string) =>
  server.call<{ id: string }>(
    "POST",
    "/api/posts",
    { title, description: "<p>Mine.</p>", category: "Ink", isFeatured: "false" },
    session.token,
  );

beforeAll(async () => {
  const admin = await server.signUp({ firstName: "Ada" });
  await server.call("POST", "/api/category", { title: "Ink" }, admin.token);
  author = await server.signUp({ firstName: "Signe" });
  await verifyWallet(author);
  post = await publish(author, "Provable words");
}, 60_000);

describe("a post's provenance in the app", () => {
  it("a reader sees 'Not signed by its author' linking to the provenance page, and no ask to sign", async () => {
    await renderApp(`/posts/${post.id}`, await server.signUp());
    const badge = await screen.findByTestId("provenance-badge");
    expect(badge).toHaveTextContent("Not signed by its author");
    expect(badge).toHaveAttribute("href", `/posts/${post.id}/provenance`);
    expect(screen.queryByRole("region", { name: "Sign this revision" })).not.toBeInTheDocument();
  });

  it("after publishing, the author is asked above the page they land on, and 'Not now' puts it away", async () => {
    askToSignRevision(post.id, "/posts");
    await renderApp("/posts", author);
    const prompt = await screen.findByRole("region", { name: "Sign this revision" });
    expect(prompt).toHaveTextContent("Revision 1 is not signed yet.");
    expect(within(prompt).getByRole("button", { name: "Sign this revision" })).toBeInTheDocument();
    await userEvent.click(within(prompt).getByRole("button", { name: "Not now" }));
    expect(screen.queryByRole("region", { name: "Sign this revision" })).not.toBeInTheDocument();
    expect(getDefaultStore().get(revisionToSignAtom)).toBeNull();
  });

  it("an author without a verified wallet is not asked: the ask goes away by itself", async () => {
    const plain = await server.signUp();
    const own = await publish(plain, "Unsigned words");
    askToSignRevision(own.id, "/posts");
    await renderApp("/posts", plain);
    await waitFor(() => expect(getDefaultStore().get(revisionToSignAtom)).toBeNull());
    expect(screen.queryByRole("region", { name: "Sign this revision" })).not.toBeInTheDocument();
  });

  it("once signed, the post says by which wallet, and its page no longer asks its author", async () => {
    const { toSign, latest } = await server.call<{
      toSign: Parameters<typeof wallet.signTypedData>[0] & { message: { revision: number } };
      latest: number;
    }>("GET", `/api/posts/${post.id}/provenance`, undefined, author.token);
    const signature = await wallet.signTypedData({
      ...toSign,
      message: { ...toSign.message, revision: BigInt(toSign.message.revision) },
    } as Parameters<typeof wallet.signTypedData>[0]);
    await server.call("POST", `/api/posts/${post.id}/revisions/${latest}/signature`, { signature }, author.token);
    await renderApp(`/posts/${post.id}`, author);
    const badge = await screen.findByTestId("provenance-badge");
    expect(badge).toHaveTextContent(`Signed by ${wallet.address.slice(0, 6)}…${wallet.address.slice(-4)}, revision 1`);
    expect(screen.queryByRole("region", { name: "Sign this revision" })).not.toBeInTheDocument();
  });
});
