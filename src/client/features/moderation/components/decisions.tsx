import { Badge, Box, Button, Field, Heading, Stack, Text, Textarea } from "@chakra-ui/react";
import { useState } from "react";
import { APPEAL_DAYS, type Decision } from "#shared/schemas/moderation.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { QueryState } from "../../../components/query-state.tsx";
import { formatDate } from "../../../lib/format.ts";
import {
  useAppeal,
  useAppealByLink,
  useDecideAppeal,
  useDecisionByLink,
  useMyDecisions,
  useWaitingAppeals,
} from "../api/appeals.ts";

const DONE: Record<string, string> = {
  dismiss: "dismissed reports about",
  hide: "hid",
  remove: "removed",
  restore: "restored",
  warn: "warned you about",
  limit: "limited your account over",
  suspend: "suspended your account over",
};
const KIND: Record<string, string> = {
  post: "your post",
  comment: "your comment",
  user: "your profile",
  "remote-reply": "a reply",
};
const APPEAL: Record<Decision["appeal"]["status"], string> = {
  none: "",
  waiting: "Appeal waiting for another moderator",
  upheld: "Appeal upheld",
  reversed: "Appeal won: reversed",
};

/** The moderators' decisions about the signed-in user, each with its rule and note, and a way to appeal it once. */
export function MyDecisions() {
  const decisions = useMyDecisions();
  return (
    <Stack gap="4">
      <Heading as="h1" size="2xl">
        Decisions about you
      </Heading>
      <Text color="fg.muted">
        You may appeal a decision once, within {APPEAL_DAYS} days; another moderator looks at it, and you hear of the
        outcome by e-mail.
      </Text>
      <QueryState query={decisions} label="Loading the decisions">
        {({ decisions: list }) =>
          list.length === 0 ? (
            <Text color="fg.muted">No moderator has made a decision about you.</Text>
          ) : (
            <Stack as="ul" listStyleType="none" gap="3">
              {list.map((decision) => (
                <MyDecisionEntry key={decision.id} decision={decision} />
              ))}
            </Stack>
          )
        }
      </QueryState>
    </Stack>
  );
}

/** `/appeal/:actionId/:token`: the decision of a suspension's mail, appealed without signing in. */
export function AppealByLink({ actionId, token }: { actionId: string; token: string }) {
  const decision = useDecisionByLink(actionId, token);
  const appeal = useAppealByLink(actionId, token);
  return (
    <Stack gap="4">
      <Heading as="h1" size="2xl">
        Appeal a decision
      </Heading>
      <Text color="fg.muted">
        You may appeal once, within {APPEAL_DAYS} days; another moderator looks at it, and you hear of the outcome by
        e-mail.
      </Text>
      <QueryState query={decision} label="Loading the decision">
        {(found) => (
          <Stack as="ul" listStyleType="none">
            <DecisionEntry decision={found} appeal={appeal} />
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}

function MyDecisionEntry({ decision }: { decision: Decision }) {
  return <DecisionEntry decision={decision} appeal={useAppeal()} />;
}

function DecisionEntry({ decision, appeal }: { decision: Decision; appeal: ReturnType<typeof useAppeal> }) {
  const [text, setText] = useState("");
  return (
    <Box as="li" borderWidth="1px" borderRadius="md" p="4">
      <Stack gap="2">
        <Text fontWeight="medium">
          {formatDate(decision.createdAt)}: a moderator {DONE[decision.action] ?? decision.action}{" "}
          {KIND[decision.targetKind] ?? "something of yours"}.
        </Text>
        <Text fontSize="sm">Rule: {decision.rule}</Text>
        {decision.note && <Text fontSize="sm">Note: {decision.note}</Text>}
        {decision.appeal.status !== "none" && <Badge alignSelf="flex-start">{APPEAL[decision.appeal.status]}</Badge>}
        {decision.appeal.open && (
          <Stack
            as="form"
            gap="2"
            onSubmit={(event) => {
              event.preventDefault();
              appeal.mutate({ actionId: decision.id, text });
            }}
          >
            <Field.Root>
              <Field.Label>Why is this decision wrong?</Field.Label>
              <Textarea rows={3} maxLength={2000} value={text} onChange={(event) => setText(event.target.value)} />
            </Field.Root>
            <ErrorLines error={appeal.error} />
            <Button
              type="submit"
              size="sm"
              alignSelf="flex-start"
              disabled={appeal.isPending || text.trim().length < 10}
            >
              {appeal.isPending ? "Sending..." : "Appeal"}
            </Button>
          </Stack>
        )}
      </Stack>
    </Box>
  );
}

/** For moderators: appeals waiting for a decision by someone other than the one who decided. */
export function WaitingAppeals() {
  const appeals = useWaitingAppeals();
  const decide = useDecideAppeal();
  if (!appeals.data || appeals.data.appeals.length === 0) return null;
  return (
    <Stack as="section" aria-labelledby="appeals" gap="3" borderWidth="1px" borderRadius="md" p="4">
      <Heading as="h2" size="md" id="appeals">
        Appeals
      </Heading>
      <ErrorLines error={decide.error} />
      <Stack as="ul" listStyleType="none" gap="3">
        {appeals.data.appeals.map((entry) => (
          <Stack as="li" key={entry.id} gap="1" borderBottomWidth="1px" pb="3">
            <Text fontSize="sm">
              {entry.action} of {entry.preview?.title ?? "an item no longer here"} under “{entry.rule}”
            </Text>
            <Text>“{entry.appeal.text}”</Text>
            <Stack direction="row" gap="2">
              <Button
                size="xs"
                variant="outline"
                disabled={decide.isPending}
                onClick={() => decide.mutate({ id: entry.id, outcome: "upheld" })}
              >
                Uphold
              </Button>
              <Button
                size="xs"
                disabled={decide.isPending}
                onClick={() => decide.mutate({ id: entry.id, outcome: "reversed" })}
              >
                Reverse
              </Button>
            </Stack>
          </Stack>
        ))}
      </Stack>
    </Stack>
  );
}
