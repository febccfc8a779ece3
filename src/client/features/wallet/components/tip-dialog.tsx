import { Button, CloseButton, Code, Dialog, Field, Input, Portal, Stack, Text } from "@chakra-ui/react";
import { useState } from "react";
import { type Hash, parseEther } from "viem";
import { useAccount, useConfig } from "wagmi";
import { sendTransaction } from "wagmi/actions";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { useRecordTip } from "../api/record-tip.ts";
import { useWalletAction } from "../use-wallet-action.ts";
import { WalletProgress } from "./wallet-progress.tsx";
import { walletIsland } from "./wallet-providers.tsx";

export interface TipTarget {
  id: string;
  name: string;
  walletAddress: string;
}

interface Props {
  user: TipTarget;
  onClose: () => void;
  /** The tip is recorded. */
  onPaid?: () => void;
}

/** An admin tips ETH to a user's verified wallet; once confirmed, the server verifies it and records the reward. */
export default walletIsland(TipDialogPanel);

const amountOk = (amount: string) => /^\d+(\.\d{1,18})?$/.test(amount) && parseEther(amount) > 0n;

function TipDialogPanel({ user, onClose, onPaid }: Props) {
  const config = useConfig();
  const { address } = useAccount();
  const action = useWalletAction();
  const { site } = action;
  const record = useRecordTip(onPaid);
  const [amount, setAmount] = useState("0.01");
  const [paid, setPaid] = useState<Hash | null>(null);
  const busy = action.busy;

  function tip() {
    action.start(
      (account) =>
        sendTransaction(config, {
          account,
          to: user.walletAddress as `0x${string}`,
          value: parseEther(amount),
          chainId: site.chainId,
        }),
      {
        onSettled: (hash) => {
          if (!hash) return;
          setPaid(hash);
          record.mutate({ userId: user.id, hash });
        },
      },
    );
  }

  const invalid = !amountOk(amount);
  return (
    <Dialog.Root open onOpenChange={(details) => !details.open && onClose()} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>Tip {user.name}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                <Text fontSize="sm">
                  To their verified wallet <Code wordBreak="break-all">{user.walletAddress}</Code> on {site.chainName}.
                  The tip is recorded as your reward once it is confirmed.
                </Text>
                <Field.Root invalid={invalid} disabled={busy || Boolean(paid)}>
                  <Field.Label>Amount (ETH)</Field.Label>
                  <Input
                    inputMode="decimal"
                    value={amount}
                    onChange={(event) => setAmount(event.target.value.trim())}
                  />
                  <Field.ErrorText>Enter an amount of ETH greater than 0</Field.ErrorText>
                </Field.Root>
                {/* RainbowKit's own buttons are styled only inside its provider's element, not in this portal. */}
                <Text fontSize="sm" color="fg.muted">
                  {address ? (
                    <>
                      From your wallet <Code>{address}</Code>
                    </>
                  ) : (
                    "Sending connects your wallet first."
                  )}
                </Text>
                <WalletProgress action={action} />
                {record.isPending && <Text role="status">Recording the tip…</Text>}
                {record.isSuccess && (
                  <Text role="status" color="green.fg" fontWeight="medium">
                    Tip recorded as your reward.
                  </Text>
                )}
                <ErrorLines error={record.error} />
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              {paid && record.isError ? (
                <Button type="button" onClick={() => record.mutate({ userId: user.id, hash: paid })}>
                  Record the tip again
                </Button>
              ) : (
                <Button
                  type="button"
                  colorPalette="teal"
                  disabled={invalid || busy || !action.ready || Boolean(paid)}
                  onClick={tip}
                >
                  {busy ? "Sending…" : "Send tip"}
                </Button>
              )}
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
