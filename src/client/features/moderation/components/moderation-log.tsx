import { Heading, Stack, Table, Text } from "@chakra-ui/react";
import { tableSlotRecipe } from "@chakra-ui/react/theme";
import { PagedList } from "../../../components/query-state.tsx";
import { formatLocalDateTime } from "../../../lib/format.ts";
import { useSlotRecipes } from "../../../lib/use-recipes.ts";
import { useModerationLog } from "../api/log.ts";

const ACTIONS: Record<string, string> = {
  dismiss: "Reports dismissed",
  hide: "Hidden",
  remove: "Removed",
  restore: "Restored",
  warn: "Author warned",
  suspend: "Account suspended",
};
const KINDS: Record<string, string> = {
  post: "A post",
  comment: "A comment",
  user: "A profile",
  "remote-reply": "A reply from the fediverse",
};

/** Every moderator's decision, newest first: when, what kind of item, which rule, what was done; never who. */
export function ModerationLog() {
  useSlotRecipes({ table: tableSlotRecipe });
  const log = useModerationLog();
  return (
    <Stack gap="4">
      <Heading as="h1" size="2xl">
        Moderation log
      </Heading>
      <Text color="fg.muted">
        Each entry carries the SHA-256 of the one before it, and each day's last entry is signed with the site's key, so
        nobody (not even us) can change or remove an entry unnoticed. Check it yourself with{" "}
        <code>npm run verify-log -- {typeof window === "undefined" ? "" : window.location.origin}</code>.
      </Text>
      <PagedList pages={log} label="Loading the moderation log" empty="No moderator has acted yet.">
        {(entries) =>
          entries.length > 0 && (
            // Focusable, so a keyboard can scroll it sideways on a phone (axe's scrollable-region-focusable).
            <Table.ScrollArea tabIndex={0} aria-label="Moderators' decisions, scrolls sideways">
              <Table.Root size="sm">
                <Table.Caption>Moderators' decisions, newest first</Table.Caption>
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader>#</Table.ColumnHeader>
                    <Table.ColumnHeader>When</Table.ColumnHeader>
                    <Table.ColumnHeader>What</Table.ColumnHeader>
                    <Table.ColumnHeader>Decision</Table.ColumnHeader>
                    <Table.ColumnHeader>Rule</Table.ColumnHeader>
                    <Table.ColumnHeader>Hash</Table.ColumnHeader>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {entries.map((entry) => (
                    <Table.Row key={entry.seq}>
                      <Table.Cell>{entry.seq}</Table.Cell>
                      <Table.Cell>{formatLocalDateTime(entry.at)}</Table.Cell>
                      <Table.Cell>{KINDS[entry.targetKind] ?? entry.targetKind}</Table.Cell>
                      <Table.Cell>{ACTIONS[entry.action] ?? entry.action}</Table.Cell>
                      <Table.Cell>{entry.rule}</Table.Cell>
                      <Table.Cell fontFamily="mono" title={entry.hash}>
                        {entry.hash.slice(0, 12)}…
                      </Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
            </Table.ScrollArea>
          )
        }
      </PagedList>
    </Stack>
  );
}
