import { Button, Heading, HStack, Stack, Text } from "@chakra-ui/react";
import { blockDomainSchema } from "#shared/schemas/federation.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { SubmitButton } from "../../../components/form/submit-button.tsx";
import { TextField } from "../../../components/form/text-field.tsx";
import { useZodForm } from "../../../components/form/use-zod-form.ts";
import { QueryState } from "../../../components/query-state.tsx";
import { useBlockedDomains, useDomainBlock } from "../api/blocked-domains.ts";

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
      <QueryState query={domains} label="Loading blocked domains">
        {(list) =>
          list.length === 0 ? (
            <Text color="fg.muted">No domain is blocked.</Text>
          ) : (
            <Stack as="ul" listStyleType="none" gap="2" aria-label="Blocked domains">
              {list.map((entry) => (
                <HStack as="li" key={entry.domain} justify="space-between" borderWidth="1px" borderRadius="md" p="2">
                  <Text fontFamily="mono">{entry.domain}</Text>
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
