import { Alert, Button, HStack, Text } from "@chakra-ui/react";
import { formatLocalDateTime, formatLocalTime } from "../../lib/format.ts";
import type { Autosave } from "./use-autosave.ts";

/** Offers back what was kept of an earlier visit, and says when the form was last kept. */
export function AutosaveNotice({ autosave }: { autosave: Autosave }) {
  if (autosave.offer) {
    return (
      <Alert.Root status="info" alignItems="center" flexWrap="wrap" gap="3">
        <Alert.Indicator />
        <Alert.Title flex="1" minW="48">
          This browser kept what you typed here on {formatLocalDateTime(autosave.offer.savedAt)}.
        </Alert.Title>
        <HStack gap="2">
          <Button size="sm" colorPalette="teal" onClick={autosave.restore}>
            Restore
          </Button>
          <Button size="sm" variant="outline" onClick={autosave.discard}>
            Discard
          </Button>
        </HStack>
      </Alert.Root>
    );
  }
  return (
    <Text aria-live="polite" fontSize="sm" color="fg.muted" minH="5">
      {autosave.savedAt ? `Saved in this browser at ${formatLocalTime(autosave.savedAt)}` : ""}
    </Text>
  );
}
