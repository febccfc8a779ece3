import {
  BaseError,
  ContractFunctionRevertedError,
  HttpRequestError,
  InsufficientFundsError,
  ResourceUnavailableRpcError,
  UserRejectedRequestError,
  WaitForTransactionReceiptTimeoutError,
} from "viem";

interface Context {
  /** The chain the site uses, named in wrong-network messages. */
  chainName?: string;
}

const codeOf = (error: unknown) =>
  typeof error === "object" && error !== null && "code" in error ? (error as { code: unknown }).code : undefined;

/** The first error in the cause chain (viem's, wagmi's, or a wallet's raw EIP-1193 error) that `test` accepts. */
function find(error: unknown, test: (error: unknown) => boolean): unknown {
  for (let current = error, depth = 0; current && depth < 10; depth++) {
    if (test(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

const is =
  (...classes: (abstract new (...args: never[]) => unknown)[]) =>
  (error: unknown) =>
    classes.some((type) => error instanceof type);
const named =
  (...names: string[]) =>
  (error: unknown) =>
    names.includes((error as { name?: string }).name ?? "");

/** One sentence a person can act on, for anything a wallet step throws. Wallet errors go through here only. */
export function parseWalletError(error: unknown, context: Context = {}): string {
  const network = context.chainName ?? "the network this site uses";
  if (find(error, (e) => is(UserRejectedRequestError)(e) || codeOf(e) === 4001)) {
    return "You rejected the request in your wallet. Nothing was sent.";
  }
  if (find(error, is(InsufficientFundsError))) {
    return "Your wallet does not have enough ETH for this payment and its network fee.";
  }
  // viem's SwitchChainError carries 4902, the code wallets use for a chain they do not know.
  if (
    find(
      error,
      (e) => named("SwitchChainError", "SwitchChainNotSupportedError")(e) || [4901, 4902].includes(codeOf(e) as number),
    )
  ) {
    return `Your wallet did not switch to ${network}. Switch it there yourself (adding the network if your wallet does not know it) and try again.`;
  }
  if (find(error, named("ChainMismatchError", "ConnectorChainMismatchError"))) {
    return `Your wallet is on another network. Switch it to ${network} and try again.`;
  }
  if (find(error, (e) => is(ResourceUnavailableRpcError)(e) || codeOf(e) === -32002)) {
    return "Your wallet already has a request waiting. Open your wallet to answer it.";
  }
  if (find(error, named("ConnectorNotConnectedError", "ConnectorAccountNotFoundError", "ProviderNotFoundError"))) {
    return "Connect your wallet first.";
  }
  const reverted = find(error, is(ContractFunctionRevertedError)) as ContractFunctionRevertedError | undefined;
  if (reverted?.data?.errorName === "FeeTooLow") {
    return "The fee contract now asks for more than this site's fee, so it refused the payment. Please tell an admin.";
  }
  if (reverted) return `The contract refused the transaction${reverted.reason ? `: ${reverted.reason}` : "."}`;
  if (find(error, is(WaitForTransactionReceiptTimeoutError))) {
    return "The transaction was not confirmed in time and may have been dropped. If your wallet shows it confirmed later, submit with its hash.";
  }
  if (find(error, is(HttpRequestError))) {
    return `The ${network} node could not be reached. Check your connection and try again.`;
  }
  if (error instanceof BaseError) return error.shortMessage;
  return error instanceof Error ? error.message : String(error);
}
