import { Badge, Button, Field, Heading, HStack, Stack, Text, Textarea } from "@chakra-ui/react";
import { useState } from "react";
import { blockDomainSchema } from "#shared/schemas/federation.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { SubmitButton } from "../../../components/form/submit-button.tsx";
import { TextField } from "../../../components/form/text-field.tsx";
import { useZodForm } from "../../../components/form/use-zod-form.ts";
import { QueryState } from "../../../components/query-state.tsx";
import { downloadBlocklist, useBlockedDomains, useDomainBlock, useImportBlocklist } from "../api/blocked-domains.ts";

/** The admin's blocked domains: their activities are refused, their followers, replies and reactions dropped. */
export function BlockedDomains() {
  const domains = useBlockedDomains();
  const block = useDomainBlock();
  const form = useZodForm(blockDomainSchema, { serverError: block.error, defaultValues: { domain: "" } });
  const onSubmit = form.handleSubmit((input) =>
    block.mutate({ domain: input.domain, blocked: true }, { onSuccess: () => form.reset({ domain: "" }) }),
  );
  return (
    <Stack gap="4">
      <Heading as="h2" size="lg">
        Blocked domains
      </Heading>
      <Text fontSize="sm" color="fg.muted">
        Activities from a blocked domain (and its subdomains) are refused, and its followers, replies and likes dropped.
      </Text>
      <Stack asChild gap="3">
        <form onSubmit={onSubmit} noValidate>
          <TextField label="Domain" registration={form.register("domain")} error={form.formState.errors.domain} />
          <SubmitButton pending={block.isPending && block.variables?.blocked === true}>Block domain</SubmitButton>
        </form>
      </Stack>
      <ErrorLines error={block.error} />
      <SharedLists />
      <QueryState query={domains} label="Loading blocked domains">
        {(list) =>
          list.length === 0 ? (
            <Text color="fg.muted">No domain is blocked.</Text>
          ) : (
            <Stack as="ul" listStyleType="none" gap="2" aria-label="Blocked domains">
              {list.map((entry) => (
                <HStack as="li" key={entry.domain} justify="space-between" borderWidth="1px" borderRadius="md" p="2">
                  <Text fontFamily="mono">
                    {entry.domain}{" "}
                    {entry.severity === "silence" && (
                      <Badge colorPalette="orange" ms="2">
                        silenced: replies wait for approval
                      </Badge>
                    )}
                  </Text>
                  <Button
                    size="xs"
                    variant="outline"
                    disabled={block.isPending}
                    onClick={() => block.mutate({ domain: entry.domain, blocked: false })}
                  >
                    Unblock
                  </Button>
                </HStack>
              ))}
            </Stack>
          )
        }
      </QueryState>
    </Stack>
  );
}

/** Shared block lists in Mastodon's CSV: the site's own to download, another's to import. */
function SharedLists() {
  const importing = useImportBlocklist();
  const [csv, setCsv] = useState("");
  const [downloading, setDownloading] = useState<unknown>(null);
  return (
    <Stack gap="2">
      <Field.Root>
        <Field.Label>Import a shared block list (Mastodon's CSV)</Field.Label>
        <Textarea
          rows={3}
          fontFamily="mono"
          placeholder="#domain,#severity,#reject_media,#reject_reports,#public_comment,#obfuscate"
          value={csv}
          onChange={(event) => setCsv(event.target.value)}
        />
      </Field.Root>
      <HStack gap="2">
        <Button size="sm" disabled={!csv.trim() || importing.isPending} onClick={() => importing.mutate(csv)}>
          {importing.isPending ? "Importing..." : "Import"}
        </Button>
        <Button size="sm" variant="outline" onClick={() => downloadBlocklist().catch(setDownloading)}>
          Download this site's list
        </Button>
      </HStack>
      {importing.data && (
        <Text role="status" fontSize="sm">
          Blocked {importing.data.imported}; skipped {importing.data.skipped.length}
          {importing.data.skipped.length > 0 &&
            `: ${importing.data.skipped.map((entry) => `line ${entry.line} (${entry.reason})`).join(", ")}`}
          .
        </Text>
      )}
      <ErrorLines error={importing.error ?? downloading} />
    </Stack>
  );
}
