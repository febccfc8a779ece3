import { Button, CloseButton, Code, Dialog, Field, Group, Input, Portal, Stack, Text } from "@chakra-ui/react";
import { dialogSlotRecipe } from "@chakra-ui/react/theme";
import { useConnectModal } from "@rainbow-me/rainbowkit";
import { useEffect, useRef, useState } from "react";
import { type Hash, parseEther } from "viem";
import { useAccount, useConfig } from "wagmi";
import { sendTransaction } from "wagmi/actions";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { useSlotRecipes } from "../../../lib/use-recipes.ts";
import { type TipRecording, useRecordTip } from "../api/record-tip.ts";
import { useWalletAction } from "../use-wallet-action.ts";
import { WalletProgress } from "./wallet-progress.tsx";
import { walletIsland } from "./wallet-providers.tsx";

/** Whom a tip pays (their verified wallet), and where the server records it once it is confirmed. */
export interface TipTarget extends TipRecording {
  name: string;
  walletAddress: string;
  /** Said under the address: what the tip is for. */
  note: string;
  /** Said once it is recorded. */
  recorded: string;
}

interface Props {
  to: TipTarget;
  /** Amounts offered with one press, in ETH (an amount of one's own can always be typed). */
  choices?: readonly string[];
  onClose: () => void;
  /** The tip is recorded. */
  onPaid?: () => void;
}

/** Tips ETH to a user's verified wallet; once confirmed, the server verifies it on-chain and records it. */
export default walletIsland(TipDialogPanel);

/**
 * A wallet is connected before the dialog opens: RainbowKit's connect modal cannot be used from inside another
 * modal, which keeps focus and hides the rest of the page. Closing it without connecting closes the tip too.
 */
function useConnectedFirst(status: ReturnType<typeof useAccount>["status"], onClose: () => void) {
  const { openConnectModal, connectModalOpen } = useConnectModal();
  const asked = useRef(false);
  const seenOpen = useRef(false);
  useEffect(() => {
    if (status !== "disconnected") return;
    if (connectModalOpen) seenOpen.current = true;
    else if (!asked.current && openConnectModal) {
      asked.current = true;
      openConnectModal();
    } else if (seenOpen.current) onClose();
  }, [status, openConnectModal, connectModalOpen, onClose]);
  return status === "connected";
}

const amountOk = (amount: string) => /^\d+(\.\d{1,18})?$/.test(amount) && parseEther(amount) > 0n;

function TipDialogPanel({ to, choices, onClose, onPaid }: Props) {
  useSlotRecipes({ dialog: dialogSlotRecipe });
  const config = useConfig();
  const { address, status } = useAccount();
  const connected = useConnectedFirst(status, onClose);
  const action = useWalletAction();
  const { site } = action;
  const record = useRecordTip(to, onPaid);
  const [amount, setAmount] = useState(choices?.[0] ?? "0.01");
  const [paid, setPaid] = useState<Hash | null>(null);
  const busy = action.busy;

  function tip() {
    action.start(
      (account) =>
        sendTransaction(config, {
          account,
          to: to.walletAddress as `0x${string}`,
          value: parseEther(amount),
          chainId: site.chainId,
        }),
      {
        onSettled: (hash) => {
          if (!hash) return;
          setPaid(hash);
          record.mutate(hash);
        },
      },
    );
  }

  const invalid = !amountOk(amount);
  if (!connected) return null;
  return (
    <Dialog.Root open onOpenChange={(details) => !details.open && onClose()} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>Tip {to.name}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                <Text fontSize="sm">
                  To their verified wallet <Code wordBreak="break-all">{to.walletAddress}</Code> on {site.chainName}.{" "}
                  {to.note}
                </Text>
                {choices && (
                  <Group attached aria-label="Amount">
                    {choices.map((choice) => (
                      <Button
                        key={choice}
                        type="button"
                        size="sm"
                        variant={amount === choice ? "solid" : "outline"}
                        aria-pressed={amount === choice}
                        disabled={busy || Boolean(paid)}
                        onClick={() => setAmount(choice)}
                      >
                        {choice} ETH
                      </Button>
                    ))}
                  </Group>
                )}
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
                {record.isPending && <Text role="status">Checking the tip on the chain…</Text>}
                {record.isSuccess && (
                  <Text role="status" color="green.fg" fontWeight="medium">
                    {to.recorded}
                  </Text>
                )}
                <ErrorLines error={record.error} />
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              {paid && record.isError ? (
                <Button type="button" onClick={() => record.mutate(paid)}>
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
