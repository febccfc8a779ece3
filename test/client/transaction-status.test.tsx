import { ChakraProvider, defaultSystem } from "@chakra-ui/react";
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { TransactionStatus } from "../../src/client/features/wallet/components/transaction-status.tsx";
import type { TxState } from "../../src/client/features/wallet/use-transactor.ts";

const HASH = `0x${"ab".repeat(32)}` as const;

function show(state: TxState, { confirmations = 0, required = 1, explorerUrl = null as string | null } = {}) {
  return render(
    <ChakraProvider value={defaultSystem}>
      <TransactionStatus state={state} confirmations={confirmations} required={required} explorerUrl={explorerUrl} />
    </ChakraProvider>,
  );
}

describe("TransactionStatus", () => {
  it("shows nothing before a transaction starts", () => {
    show({ status: "idle" });
    expect(screen.queryByTestId("transaction-status")).toBeNull();
  });

  it("asks to confirm in the wallet, politely announced", () => {
    show({ status: "wallet" });
    const status = screen.getByTestId("transaction-status");
    expect(status).toHaveAttribute("aria-live", "polite");
    expect(status).toHaveTextContent("Confirm the transaction in your wallet…");
  });

  it("shows a sent transaction with its hash when the chain has no explorer", () => {
    show({ status: "pending", hash: HASH });
    expect(screen.getByText("Sent. Waiting for the transaction to be mined…")).toBeInTheDocument();
    expect(screen.getByText(HASH)).toBeInTheDocument();
    expect(screen.queryByRole("link")).toBeNull();
  });

  it("links the transaction on the chain's explorer", () => {
    show({ status: "pending", hash: HASH }, { explorerUrl: "https://sepolia.etherscan.io" });
    expect(screen.getByRole("link", { name: "View the transaction on the explorer" })).toHaveAttribute(
      "href",
      `https://sepolia.etherscan.io/tx/${HASH}`,
    );
  });

  it("counts confirmations while it waits for the ones the server asks for", () => {
    show({ status: "mined", hash: HASH, blockNumber: 10n }, { confirmations: 2, required: 3 });
    expect(screen.getByText("Mined: 2 of 3 confirmations…")).toBeInTheDocument();
  });

  it("says when it is confirmed", () => {
    show({ status: "confirmed", hash: HASH, blockNumber: 10n }, { confirmations: 1, required: 1 });
    expect(screen.getByText("Confirmed with 1 confirmation.")).toBeInTheDocument();
    expect(screen.getByTestId("transaction-status")).toHaveAttribute("data-status", "confirmed");
  });

  it("shows a failure as an alert, with the hash when there was one", () => {
    show({ status: "failed", hash: HASH, message: "The transaction failed on-chain, so nothing was paid." });
    expect(screen.getByRole("alert")).toHaveTextContent("The transaction failed on-chain, so nothing was paid.");
    expect(screen.getByText(HASH)).toBeInTheDocument();
  });
});
