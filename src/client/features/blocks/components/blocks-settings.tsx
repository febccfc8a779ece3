import { Button, Field, Heading, HStack, Stack, Text, Textarea } from "@chakra-ui/react";
import { useState } from "react";
import type { UserSummary } from "#shared/schemas/users.ts";
import { ActionButton } from "../../../components/action-button.tsx";
import { CheckboxField } from "../../../components/form/checkbox-field.tsx";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { QueryState } from "../../../components/query-state.tsx";
import { UserChip } from "../../../components/user-chip.tsx";
import { useCommentSettings, useSetCommentSettings } from "../api/comments.ts";
import { type Relation, useRelations, useReplaceMutedWords, useSetRelation } from "../api/relations.ts";

/** `/settings/blocks`: whom you blocked and muted, the words you muted, and who may comment on your posts at once. */
export function BlocksSettings() {
  const relations = useRelations();
  return (
    <Stack gap="8">
      <Heading as="h1" size="2xl">
        Blocks, mutes and comments
      </Heading>
      <QueryState query={relations} label="Loading your blocks and mutes">
        {(data) => (
          <>
            <PeopleList
              title="Blocked"
              relation="block"
              people={data.blocked}
              explain="They cannot follow you, comment on your posts, message or tip you, and their comments on your posts are hidden. They are not told."
              empty="You have blocked no one. Block someone from their profile."
            />
            <PeopleList
              title="Muted"
              relation="mute"
              people={data.muted}
              explain="Their posts leave your Following feed and their doings your notifications. Nothing changes for them."
              empty="You have muted no one. Mute someone from their profile."
            />
            <MutedWords words={data.words} />
          </>
        )}
      </QueryState>
      <FirstComments />
    </Stack>
  );
}

function PeopleList(props: {
  title: string;
  relation: Relation;
  people: UserSummary[];
  explain: string;
  empty: string;
}) {
  const set = useSetRelation();
  const id = `relation-${props.relation}`;
  return (
    <Stack as="section" aria-labelledby={id} gap="2">
      <Heading as="h2" size="lg" id={id}>
        {props.title}
      </Heading>
      <Text fontSize="sm" color="fg.muted">
        {props.explain}
      </Text>
      <ErrorLines error={set.error} />
      {props.people.length === 0 ? (
        <Text>{props.empty}</Text>
      ) : (
        <Stack as="ul" listStyleType="none" gap="2">
          {props.people.map((user) => (
            <HStack as="li" key={user.id} justify="space-between" borderBottomWidth="1px" pb="2">
              <UserChip user={user} size="sm" />
              <ActionButton
                size="sm"
                variant="outline"
                busy={set.isPending}
                onClick={() => set.mutate({ userId: user.id, relation: props.relation, on: false })}
              >
                {props.relation === "block" ? "Unblock" : "Unmute"}
              </ActionButton>
            </HStack>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** One word or phrase a line; saved as a whole list. */
function MutedWords({ words }: { words: string[] }) {
  const replace = useReplaceMutedWords();
  const [text, setText] = useState(words.join("\n"));
  const [saved, setSaved] = useState(false);
  return (
    <Stack
      as="form"
      aria-labelledby="muted-words"
      gap="2"
      onSubmit={(event) => {
        event.preventDefault();
        setSaved(false);
        const list = text
          .split("\n")
          .map((word) => word.trim())
          .filter(Boolean);
        replace.mutate(list, { onSuccess: () => setSaved(true) });
      }}
    >
      <Heading as="h2" size="lg" id="muted-words">
        Muted words
      </Heading>
      <Field.Root>
        <Field.Label>Words and phrases, one a line</Field.Label>
        <Textarea rows={4} value={text} onChange={(event) => setText(event.target.value)} />
        <Field.HelperText>
          Posts whose title or text holds one leave your Following feed, and notifications about them leave your list.
        </Field.HelperText>
      </Field.Root>
      <ErrorLines error={replace.error} />
      <HStack gap="3">
        <Button type="submit" size="sm" colorPalette="teal" disabled={replace.isPending}>
          {replace.isPending ? "Saving..." : "Save muted words"}
        </Button>
        {saved && (
          <Text role="status" fontSize="sm">
            Muted words saved.
          </Text>
        )}
      </HStack>
    </Stack>
  );
}

function FirstComments() {
  const settings = useCommentSettings();
  const set = useSetCommentSettings();
  // The box shows the choice at once (set in the same event, so the browser's toggle stands); once saved, or if
  // saving fails, it shows what is saved.
  const [choice, setChoice] = useState<boolean | null>(null);
  return (
    <Stack as="section" aria-labelledby="first-comments" gap="2">
      <Heading as="h2" size="lg" id="first-comments">
        Comments on your posts
      </Heading>
      {settings.data && (
        <CheckboxField
          label="Hold comments from first-time commenters"
          hint="A comment from someone who never had one shown on your posts waits until you approve it on the post's page."
          checked={choice ?? settings.data.holdFirstComments}
          disabled={set.isPending}
          onChange={(event) => {
            const hold = event.target.checked;
            setChoice(hold);
            set.mutate(hold, { onSettled: () => setChoice(null) });
          }}
        />
      )}
      <ErrorLines error={settings.error ?? set.error} />
    </Stack>
  );
}
