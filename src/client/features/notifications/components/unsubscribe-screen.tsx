import { DELIVERY_LABELS, unsubscribeSchema } from "#shared/schemas/notifications.ts";
import { UnsubscribePanel } from "../../../components/unsubscribe-panel.tsx";
import { useOnOpen } from "../../../lib/use-on-open.ts";
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
  useOnOpen(() => {
    if (link.success) unsubscribe.mutate(link.data);
  });

  const done = unsubscribe.data;
  const undone = resubscribe.data;
  return (
    <UnsubscribePanel
      valid={link.success}
      pending={unsubscribe.isPending}
      error={unsubscribe.error ?? resubscribe.error}
      done={done && `Done: you will no longer receive e-mail for “${done.label}”. You still see them in the app.`}
      undo={
        link.success && done
          ? {
              label: "Undo",
              pending: resubscribe.isPending,
              onClick: () => resubscribe.mutate({ ...link.data, topics: done.topics, undo: done.undo }),
            }
          : undefined
      }
      undone={undone && `Undone: “${undone.label}” is back to ${DELIVERY_LABELS[undone.delivery].toLowerCase()}.`}
    />
  );
}
