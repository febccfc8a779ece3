import { Code, HStack, Link, Spinner, Stack, Text } from "@chakra-ui/react";
import type { TxState } from "../use-transactor.ts";

interface Props {
  state: TxState;
  /** Confirmations seen so far, and how many the server asks for. */
  confirmations: number;
  required: number;
  explorerUrl: string | null;
}

const plural = (count: number) => `${count} confirmation${count === 1 ? "" : "s"}`;

function HashLine({ hash, explorerUrl }: { hash: string; explorerUrl: string | null }) {
  if (explorerUrl) {
    return (
      <Link href={`${explorerUrl}/tx/${hash}`} target="_blank" rel="noreferrer" color="teal.fg" fontSize="sm">
        View the transaction on the explorer
      </Link>
    );
  }
  return (
    <Text fontSize="sm" color="fg.muted">
      Transaction <Code wordBreak="break-all">{hash}</Code>
    </Text>
  );
}

/** A transaction's life in words, announced to screen readers as it changes. */
export function TransactionStatus({ state, confirmations, required, explorerUrl }: Props) {
  if (state.status === "idle") return null;
  const hash = "hash" in state ? state.hash : undefined;
  const line = {
    wallet: { busy: true, text: "Confirm the transaction in your wallet…" },
    pending: { busy: true, text: "Sent. Waiting for the transaction to be mined…" },
    mined: { busy: true, text: `Mined: ${confirmations} of ${plural(required)}…` },
    confirmed: { busy: false, text: `Confirmed with ${plural(required)}.` },
    failed: { busy: false, text: state.status === "failed" ? state.message : "" },
  }[state.status];
  return (
    <Stack gap="1" aria-live="polite" data-testid="transaction-status" data-status={state.status}>
      <HStack gap="2">
        {line.busy && <Spinner size="xs" />}
        <Text
          role={state.status === "failed" ? "alert" : undefined}
          color={state.status === "failed" ? "fg.error" : state.status === "confirmed" ? "green.fg" : undefined}
          fontWeight="medium"
        >
          {line.text}
        </Text>
      </HStack>
      {hash && <HashLine hash={hash} explorerUrl={explorerUrl} />}
    </Stack>
  );
}
