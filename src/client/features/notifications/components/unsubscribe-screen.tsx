import { Button, Heading, Stack, Text } from "@chakra-ui/react";
import { useEffect, useRef } from "react";
import { DELIVERY_LABELS, unsubscribeSchema } from "#shared/schemas/notifications.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { Panel } from "../../../components/layout/panel.tsx";
import { useResubscribe, useUnsubscribe } from "../api/settings.ts";

/**
 * `/unsubscribe/:userId/:topic/:token`, the footer link of every mail sent because of a switch: opening it turns
 * that switch off (no login: the link's token is the proof) and says so, with a way back. The page does it, not
 * the address itself, so a mail scanner that only fetches links unsubscribes nobody.
 */
export function UnsubscribeScreen({ params }: { params: Record<string, string | undefined> }) {
  const link = unsubscribeSchema.safeParse(params);
  const unsubscribe = useUnsubscribe();
  const resubscribe = useResubscribe();
  const sent = useRef(false);
  useEffect(() => {
    if (!link.success || sent.current) return;
    sent.current = true;
    unsubscribe.mutate(link.data);
  }, [link, unsubscribe]);

  const done = unsubscribe.data;
  const undone = resubscribe.data;
  return (
    <Panel>
      <Stack gap="4">
        <Heading as="h1" size="xl">
          Unsubscribe
        </Heading>
        {!link.success && <Text color="fg.error">This unsubscribe link is not valid.</Text>}
        {unsubscribe.isPending && <Text role="status">Turning these e-mails off…</Text>}
        <ErrorLines error={unsubscribe.error ?? resubscribe.error} />
        {done && !undone && (
          <>
            <Text role="status">
              Done: you will no longer receive e-mail for “{done.label}”. You still see them in the app.
            </Text>
            {link.success && (
              <Button
                alignSelf="flex-start"
                variant="outline"
                loading={resubscribe.isPending}
                onClick={() => resubscribe.mutate({ ...link.data, topics: done.topics, undo: done.undo })}
              >
                Undo
              </Button>
            )}
          </>
        )}
        {undone && (
          <Text role="status">
            Undone: “{undone.label}” is back to {DELIVERY_LABELS[undone.delivery].toLowerCase()}.
          </Text>
        )}
      </Stack>
    </Panel>
  );
}
