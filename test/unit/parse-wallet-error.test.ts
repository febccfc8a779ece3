import {
  BaseError,
  ChainMismatchError,
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  encodeErrorResult,
  HttpRequestError,
  InsufficientFundsError,
  ResourceUnavailableRpcError,
  SwitchChainError,
  TransactionExecutionError,
  UserRejectedRequestError,
  WaitForTransactionReceiptTimeoutError,
} from "viem";
import { mainnet } from "viem/chains";
import { describe, expect, it } from "vitest";
import { featuredFeeAbi } from "#shared/contracts/featured-fee.ts";
import { parseWalletError } from "../../src/client/features/wallet/parse-wallet-error.ts";

const chainName = "Hardhat";
/** A wallet error as viem hands it over: wrapped in the error of the action that failed. */
const wrapped = (cause: Error) =>
  new TransactionExecutionError(cause as BaseError, { account: undefined, chain: undefined } as never);

describe("parseWalletError", () => {
  it("says the user rejected, through any wrapping and for raw EIP-1193 errors", () => {
    const rejected = "You rejected the request in your wallet. Nothing was sent.";
    expect(parseWalletError(wrapped(new UserRejectedRequestError(new Error("denied"))))).toBe(rejected);
    expect(parseWalletError({ code: 4001, message: "User denied" })).toBe(rejected);
  });

  it("names missing funds", () => {
    expect(parseWalletError(wrapped(new InsufficientFundsError()))).toBe(
      "Your wallet does not have enough ETH for this payment and its network fee.",
    );
  });

  it("asks to switch networks, naming the site's chain", () => {
    const didNotSwitch =
      "Your wallet did not switch to Hardhat. Switch it there yourself (adding the network if your wallet does not know it) and try again.";
    expect(parseWalletError({ code: 4902, message: "Unrecognized chain" }, { chainName })).toBe(didNotSwitch);
    expect(parseWalletError(new SwitchChainError(new Error("nope")), { chainName })).toBe(didNotSwitch);
    expect(parseWalletError(new ChainMismatchError({ chain: mainnet, currentChainId: 1 }), { chainName })).toBe(
      "Your wallet is on another network. Switch it to Hardhat and try again.",
    );
  });

  it("says a request is already waiting in the wallet", () => {
    expect(parseWalletError(new ResourceUnavailableRpcError(new Error("pending")))).toBe(
      "Your wallet already has a request waiting. Open your wallet to answer it.",
    );
  });

  it("explains the fee contract's FeeTooLow revert, and names other reverts", () => {
    const data = encodeErrorResult({ abi: featuredFeeAbi, errorName: "FeeTooLow", args: [1n, 2n] });
    const reverted = new ContractFunctionRevertedError({ abi: featuredFeeAbi, data, functionName: "payFeature" });
    const simulated = new ContractFunctionExecutionError(reverted, {
      abi: featuredFeeAbi,
      functionName: "payFeature",
      args: ["0x"],
    });
    expect(parseWalletError(simulated)).toBe(
      "The fee contract now asks for more than this site's fee, so it refused the payment. Please tell an admin.",
    );
    const other = new ContractFunctionRevertedError({
      abi: featuredFeeAbi,
      message: "out of luck",
      functionName: "payFeature",
    });
    expect(parseWalletError(other)).toBe("The contract refused the transaction: out of luck");
  });

  it("warns that an unconfirmed transaction may have been dropped", () => {
    expect(parseWalletError(new WaitForTransactionReceiptTimeoutError({ hash: "0x1" }))).toMatch(
      /^The transaction was not confirmed in time and may have been dropped\./,
    );
  });

  it("says the node could not be reached", () => {
    expect(parseWalletError(new HttpRequestError({ url: "http://127.0.0.1:8545" }), { chainName })).toBe(
      "The Hardhat node could not be reached. Check your connection and try again.",
    );
  });

  it("falls back to viem's short message, then to any error's message", () => {
    expect(parseWalletError(new BaseError("Something odd happened."))).toBe("Something odd happened.");
    expect(parseWalletError(new Error("plain"))).toBe("plain");
    expect(parseWalletError("a string")).toBe("a string");
  });
});
