import { Box, Button, Container, Field, Heading, HStack, Input, Stack, Text, Textarea } from "@chakra-ui/react";
import { type FormEvent, useState } from "react";
import { IMPORT_FORMATS, type ImportFormat, type ImportState } from "#shared/schemas/imports.ts";
import { CheckboxField } from "../../../components/form/checkbox-field.tsx";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { SelectField } from "../../../components/form/select-field.tsx";
import { SubmitButton } from "../../../components/form/submit-button.tsx";
import { useSession } from "../../../lib/session.ts";
import { useCancelImport, useLatestImport, useStartImport } from "../api/imports.ts";

const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

const STATUS_LINE: Record<ImportState["status"], string> = {
  queued: "Waiting to start…",
  running: "Importing…",
  done: "Import finished.",
  failed: "The import stopped.",
  cancelled: "Import cancelled. What was imported stays; import the same file again to finish it.",
};

/** Where the latest import stands: a progress bar (items done of those found), each item's problem, cancel. */
function ImportProgress({ state }: { state: ImportState }) {
  const cancel = useCancelImport();
  const underWay = state.status === "queued" || state.status === "running";
  const percent = state.total > 0 ? Math.round((state.done / state.total) * 100) : 0;
  return (
    <Box as="section" aria-labelledby="progress-heading" borderWidth="1px" borderRadius="lg" p="5">
      <Stack gap="3">
        <Heading as="h2" id="progress-heading" size="lg">
          {state.fileName}
        </Heading>
        <Box asChild width="100%" height="3" css={{ accentColor: "var(--chakra-colors-teal-700)" }}>
          <progress value={state.done} max={Math.max(state.total, 1)} aria-label="Import progress">
            {percent}%
          </progress>
        </Box>
        <Text role="status" aria-live="polite">
          {STATUS_LINE[state.status]} {state.done} of {state.total} items ({percent}%)
          {state.errors.length > 0 && `, ${state.errors.length} with problems`}.
        </Text>
        {state.error && <Text color="fg.error">{state.error}</Text>}
        {state.errors.length > 0 && (
          <Box as="ul" ps="5" fontSize="sm" maxH="60" overflowY="auto">
            {state.errors.map((error, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the list is shown as the server sends it, never reordered
              <li key={index}>
                <Text as="span" fontWeight="medium">
                  {error.item}
                </Text>
                : {error.reason}
              </li>
            ))}
          </Box>
        )}
        <ErrorLines error={cancel.error} />
        {underWay && (
          <Button
            alignSelf="flex-start"
            variant="outline"
            colorPalette="red"
            loading={cancel.isPending}
            onClick={() => cancel.mutate(state.id)}
          >
            Cancel import
          </Button>
        )}
      </Stack>
    </Box>
  );
}

/** `/import`: bring posts (and readers) from WordPress, Ghost, Substack or Markdown files. */
export function ImportScreen() {
  const session = useSession();
  const latest = useLatestImport();
  const [uploaded, setUploaded] = useState<{ sent: number; total: number } | null>(null);
  const start = useStartImport((sent, total) => setUploaded({ sent, total }));
  const [format, setFormat] = useState<ImportFormat>("wxr");
  const [file, setFile] = useState<File | null>(null);
  const [missing, setMissing] = useState(false);
  const [site, setSite] = useState(false);
  const state = latest.data?.import ?? null;
  const underWay = state?.status === "queued" || state?.status === "running";

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!file) return setMissing(true);
    const form = new FormData(event.currentTarget);
    setUploaded(null);
    start.mutate(form);
  };

  return (
    <Container maxW="3xl" py="8">
      <Stack gap="6">
        <Heading as="h1" size="2xl">
          Import
        </Heading>
        <Text>
          Bring your posts from another blog: their text, images, dates, categories and comments, and your e-mail
          subscribers. Old addresses lead to the new posts. Importing the same file again adds nothing twice.
        </Text>
        {state && <ImportProgress state={state} />}
        <Stack asChild gap="5">
          <form onSubmit={submit} noValidate aria-labelledby="import-form-heading">
            <Heading as="h2" id="import-form-heading" size="lg">
              Import an archive
            </Heading>
            <SelectField
              label="Where it comes from"
              name="format"
              value={format}
              options={IMPORT_FORMATS}
              onChange={setFormat}
            />
            <Field.Root invalid={missing}>
              <Field.Label>Archive file</Field.Label>
              <Input
                type="file"
                name="file"
                accept=".xml,.json,.zip"
                p="1"
                onChange={(event) => {
                  setFile(event.target.files?.[0] ?? null);
                  setMissing(false);
                }}
              />
              <Field.HelperText>
                A .xml, .json or .zip file, up to 1 GB. It is read on the server, a piece at a time.
              </Field.HelperText>
              {missing && <Field.ErrorText>Choose the archive to import</Field.ErrorText>}
            </Field.Root>
            <CheckboxField
              name="fetchImages"
              value="true"
              label="Fetch images from my old site"
              hint="Images the archive does not hold are downloaded from their https addresses and stored here. Otherwise they keep pointing to the old site."
            />
            {session?.isAdmin && (
              <>
                <CheckboxField
                  name="site"
                  value="true"
                  checked={site}
                  onChange={(event) => setSite(event.target.checked)}
                  label="Import the whole site"
                  hint="Each post goes to the account its author maps to below; authors not mapped become yours."
                />
                {site && (
                  <Field.Root>
                    <Field.Label>Authors</Field.Label>
                    <Textarea
                      name="authors"
                      rows={4}
                      placeholder={"alice = alice@example.com\nbob = bob@example.com"}
                    />
                    <Field.HelperText>
                      One per line: the author's name in the archive = the e-mail of their account here.
                    </Field.HelperText>
                  </Field.Root>
                )}
              </>
            )}
            {start.isPending && uploaded && (
              <Stack gap="1">
                <Box asChild width="100%" height="3">
                  <progress value={uploaded.sent} max={Math.max(uploaded.total, 1)} aria-label="Upload progress" />
                </Box>
                <Text fontSize="sm" role="status" aria-live="polite">
                  Uploading: {megabytes(uploaded.sent)} of {megabytes(uploaded.total)} MB. Keep this page open; the
                  archive is checked once it has arrived.
                </Text>
              </Stack>
            )}
            <ErrorLines error={start.error ?? latest.error} />
            <HStack>
              <SubmitButton pending={start.isPending} busyText="Uploading…" disabled={underWay}>
                Import
              </SubmitButton>
              {underWay && <Text fontSize="sm">One import at a time: this one starts when the one above ends.</Text>}
            </HStack>
          </form>
        </Stack>
      </Stack>
    </Container>
  );
}
