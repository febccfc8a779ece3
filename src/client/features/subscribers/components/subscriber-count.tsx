import { Box, Button, HStack, Stat, Text } from "@chakra-ui/react";
import { statSlotRecipe } from "@chakra-ui/react/theme";
import { useState } from "react";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { useSlotRecipes } from "../../../lib/use-recipes.ts";
import { downloadSubscribers, useSubscriberCounts } from "../api/subscriptions.ts";

/** The author's own count of readers subscribed by e-mail, on their profile, with the list as CSV. */
export function SubscriberCount({ authorId }: { authorId: string }) {
  useSlotRecipes({ stat: statSlotRecipe });
  const counts = useSubscriberCounts(authorId);
  const [download, setDownload] = useState<{ busy: boolean; error: unknown }>({ busy: false, error: null });
  const save = () => {
    setDownload({ busy: true, error: null });
    downloadSubscribers(authorId).then(
      () => setDownload({ busy: false, error: null }),
      (error: unknown) => setDownload({ busy: false, error }),
    );
  };
  return (
    <Box borderWidth="1px" borderRadius="lg" p="4">
      <HStack justify="space-between" wrap="wrap" gap="3">
        <Stat.Root>
          <Stat.Label>E-mail subscribers</Stat.Label>
          <Stat.ValueText>{counts.data?.active ?? "…"}</Stat.ValueText>
          {Boolean(counts.data?.pending) && (
            <Text fontSize="sm" color="fg.muted">
              {counts.data?.pending} waiting to confirm
            </Text>
          )}
        </Stat.Root>
        <Button size="sm" variant="outline" onClick={save} loading={download.busy} loadingText="Preparing CSV">
          Download subscribers (CSV)
        </Button>
      </HStack>
      <ErrorLines error={counts.error ?? download.error} />
    </Box>
  );
}
