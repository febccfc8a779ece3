import { Button, Field, Heading, HStack, Input, Stack, Text, Textarea } from "@chakra-ui/react";
import { useState } from "react";
import { can } from "#shared/permissions.ts";
import type { Rule } from "#shared/schemas/moderation.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { QueryState } from "../../../components/query-state.tsx";
import { useSession } from "../../../lib/session.ts";
import { useReplaceRules, useRules } from "../api/rules.ts";

/** The site's rules, which every report and every moderator's decision names; admins edit them here. */
export function RulesPage() {
  const rules = useRules();
  const session = useSession();
  const [editing, setEditing] = useState(false);
  return (
    <Stack gap="6" maxW="2xl">
      <Heading as="h1" size="2xl">
        The site's rules
      </Heading>
      <Text color="fg.muted">
        Blogs here must be free from racism and unhealthy words. Anyone signed in can report what breaks a rule;
        moderators decide, and every decision is listed in the public{" "}
        <a href="/moderation/log" style={{ textDecoration: "underline" }}>
          moderation log
        </a>
        .
      </Text>
      <QueryState query={rules} label="Loading the rules">
        {({ rules: list }) =>
          editing ? (
            <RulesEditor rules={list} onDone={() => setEditing(false)} />
          ) : (
            <Stack as="ol" gap="4" listStyleType="none">
              {list.map((rule) => (
                <Stack as="li" key={rule.id} gap="1">
                  <Heading as="h2" size="md">
                    {rule.number}. {rule.title}
                  </Heading>
                  {rule.description && <Text>{rule.description}</Text>}
                </Stack>
              ))}
            </Stack>
          )
        }
      </QueryState>
      {can(session, "manage-rules") && !editing && (
        <Button alignSelf="flex-start" variant="outline" onClick={() => setEditing(true)}>
          Edit the rules
        </Button>
      )}
    </Stack>
  );
}

type Draft = { id?: string; title: string; description: string; key: string };

function RulesEditor({ rules, onDone }: { rules: Rule[]; onDone: () => void }) {
  const save = useReplaceRules();
  const [drafts, setDrafts] = useState<Draft[]>(() => rules.map((rule) => ({ ...rule, key: rule.id })));
  const edit = (index: number, change: Partial<Draft>) =>
    setDrafts((list) => list.map((draft, at) => (at === index ? { ...draft, ...change } : draft)));
  return (
    <Stack
      as="form"
      gap="4"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(
          { rules: drafts.map(({ id, title, description }) => ({ ...(id ? { id } : {}), title, description })) },
          { onSuccess: onDone },
        );
      }}
    >
      {drafts.map((draft, index) => (
        <Stack key={draft.key} gap="2" borderWidth="1px" borderRadius="md" p="3">
          <Field.Root>
            <Field.Label>Rule {index + 1}</Field.Label>
            <Input
              value={draft.title}
              maxLength={80}
              onChange={(event) => edit(index, { title: event.target.value })}
            />
          </Field.Root>
          <Field.Root>
            <Field.Label>What it means</Field.Label>
            <Textarea
              value={draft.description}
              maxLength={300}
              rows={2}
              onChange={(event) => edit(index, { description: event.target.value })}
            />
          </Field.Root>
          <Button
            size="xs"
            variant="ghost"
            colorPalette="red"
            alignSelf="flex-start"
            onClick={() => setDrafts((list) => list.filter((_, at) => at !== index))}
          >
            Remove rule {index + 1}
          </Button>
        </Stack>
      ))}
      <ErrorLines error={save.error} />
      <HStack gap="3">
        <Button
          variant="outline"
          onClick={() =>
            setDrafts((list) => [...list, { title: "", description: "", key: `new-${list.length}-${Date.now()}` }])
          }
        >
          Add a rule
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving..." : "Save the rules"}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </HStack>
    </Stack>
  );
}
