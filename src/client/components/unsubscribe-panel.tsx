import { Button, Heading, Stack, Text } from "@chakra-ui/react";
import type { ReactNode } from "react";
import { ErrorLines } from "./form/error-lines.tsx";
import { Panel } from "./layout/panel.tsx";

/**
 * The page of a mail's unsubscribe link: it says the link is not valid, that it is at work, what it turned off
 * (with a way back), or that the way back was taken.
 */
export function UnsubscribePanel({
  valid,
  pending,
  error,
  done,
  undo,
  undone,
}: {
  valid: boolean;
  pending: boolean;
  error: unknown;
  /** What was turned off, once it was. */
  done?: ReactNode;
  undo?: { label: string; pending: boolean; onClick: () => void };
  /** What the way back brought back, once taken. */
  undone?: ReactNode;
}) {
  return (
    <Panel>
      <Stack gap="4">
        <Heading as="h1" size="xl">
          Unsubscribe
        </Heading>
        {!valid && <Text color="fg.error">This unsubscribe link is not valid.</Text>}
        {pending && <Text role="status">Turning these e-mails off…</Text>}
        <ErrorLines error={error} />
        {done && !undone && (
          <>
            <Text role="status">{done}</Text>
            {undo && (
              <Button alignSelf="flex-start" variant="outline" loading={undo.pending} onClick={undo.onClick}>
                {undo.label}
              </Button>
            )}
          </>
        )}
        {undone && <Text role="status">{undone}</Text>}
      </Stack>
    </Panel>
  );
}
