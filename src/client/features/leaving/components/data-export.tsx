import { Box, Button, Heading, Stack, Text } from "@chakra-ui/react";
import type { DataExport } from "#shared/schemas/leaving.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { formatDate } from "../../../lib/format.ts";
import { useLatestExport, useRequestExport } from "../api/data-export.ts";

/** What the latest archive's state means to its owner. */
function stateLine(archive: DataExport) {
  switch (archive.status) {
    case "queued":
    case "running":
      return "Preparing your archive… We will e-mail you a link when it is ready; you can leave this page.";
    case "ready":
      return `Ready: we e-mailed you a link. It works once, until ${formatDate(archive.expiresAt ?? "")}.`;
    case "downloaded":
      return "Your last archive was downloaded. Ask for a new one whenever you like.";
    case "expired":
      return "Your last archive's link has expired. Ask for a new one whenever you like.";
    case "failed":
      return "Your last archive could not be prepared. Nothing was lost: ask again.";
  }
}

/** "Download my data": every post (HTML, Markdown, images), Ghost JSON, comments, followers, subscribers, payments. */
export function DataExportSection() {
  const latest = useLatestExport();
  const request = useRequestExport();
  const archive = latest.data?.export ?? null;
  const preparing = archive?.status === "queued" || archive?.status === "running";
  return (
    <Box as="section" aria-labelledby="export-heading" borderWidth="1px" borderRadius="lg" p="5">
      <Stack gap="4">
        <Heading as="h2" id="export-heading" size="lg">
          Download my data
        </Heading>
        <Text>
          One zip file with every post as HTML and as Markdown with its images, a file Ghost can import, your comments,
          followers and following, e-mail subscribers, tips and payments with their transactions, and your profile.
        </Text>
        {archive && (
          <Text role="status" aria-live="polite">
            {stateLine(archive)}
          </Text>
        )}
        <ErrorLines error={request.error ?? latest.error} />
        <Button
          alignSelf="flex-start"
          colorPalette="teal"
          onClick={() => request.mutate()}
          loading={request.isPending || preparing}
          loadingText="Preparing"
        >
          Download my data
        </Button>
      </Stack>
    </Box>
  );
}
