import { Button, Field, Heading, Stack, Text, Textarea } from "@chakra-ui/react";
import { useState } from "react";
import type { FilterTermsInput } from "#shared/schemas/moderation.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { QueryState } from "../../../components/query-state.tsx";
import { useFilterTerms, useReplaceFilterTerms } from "../api/terms.ts";

const lines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

/** The admin's own words for the filter of new text, besides the maintained list: held for review, or refused. */
export function FilterTerms() {
  const terms = useFilterTerms();
  return (
    <Stack as="section" aria-labelledby="filter-terms" gap="3" borderWidth="1px" borderRadius="md" p="4">
      <Heading as="h2" size="md" id="filter-terms">
        The filter's words
      </Heading>
      <Text fontSize="sm" color="fg.muted">
        New posts, comments and replies from the fediverse with a word of the maintained English list (leetspeak and
        look-alike letters included) wait for a moderator; names and bios with one are refused. Add the site's own words
        here, one per line.
      </Text>
      <QueryState query={terms} label="Loading the filter's words">
        {(data) => <TermsForm initial={data.terms} />}
      </QueryState>
    </Stack>
  );
}

function TermsForm({ initial }: { initial: FilterTermsInput["terms"] }) {
  const save = useReplaceFilterTerms();
  const of = (action: "hold" | "refuse") =>
    initial
      .filter((entry) => entry.action === action)
      .map((entry) => entry.term)
      .join("\n");
  const [hold, setHold] = useState(() => of("hold"));
  const [refuse, setRefuse] = useState(() => of("refuse"));
  return (
    <Stack
      as="form"
      gap="3"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({
          terms: [
            ...lines(hold).map((term) => ({ term, action: "hold" as const })),
            ...lines(refuse).map((term) => ({ term, action: "refuse" as const })),
          ],
        });
      }}
    >
      <Field.Root>
        <Field.Label>Hold for review</Field.Label>
        <Textarea rows={4} value={hold} onChange={(event) => setHold(event.target.value)} />
      </Field.Root>
      <Field.Root>
        <Field.Label>Refuse</Field.Label>
        <Textarea rows={4} value={refuse} onChange={(event) => setRefuse(event.target.value)} />
      </Field.Root>
      <ErrorLines error={save.error} />
      {save.isSuccess && <Text role="status">Saved.</Text>}
      <Button type="submit" alignSelf="flex-start" disabled={save.isPending}>
        {save.isPending ? "Saving..." : "Save the words"}
      </Button>
    </Stack>
  );
}
