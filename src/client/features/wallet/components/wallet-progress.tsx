import { HStack, Spinner, Text } from "@chakra-ui/react";
import type { WalletAction } from "../use-wallet-action.ts";
import { TransactionStatus } from "./transaction-status.tsx";

/** Where a wallet action is: the step before sending, then the transaction's life with its explorer link. */
export function WalletProgress({ action }: { action: WalletAction }) {
  return (
    <>
      {action.step && (
        <HStack gap="2" aria-live="polite">
          <Spinner size="xs" />
          <Text>{action.step}</Text>
        </HStack>
      )}
      <TransactionStatus
        state={action.tx.state}
        confirmations={action.tx.confirmations}
        required={action.site.minConfirmations}
        explorerUrl={action.site.explorerUrl}
      />
    </>
  );
}
