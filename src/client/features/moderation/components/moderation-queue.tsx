import { Badge, Box, Button, Field, Heading, HStack, NativeSelect, Stack, Text, Textarea } from "@chakra-ui/react";
import { useState } from "react";
import { can } from "#shared/permissions.ts";
import {
  type ModerationAction,
  type QueueItem,
  REPORT_KINDS,
  type ReportKind,
  type ReportOrigin,
  type ReportStatus,
} from "#shared/schemas/moderation.ts";
import { CheckboxField } from "../../../components/form/checkbox-field.tsx";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { SelectField } from "../../../components/form/select-field.tsx";
import { PagedList } from "../../../components/query-state.tsx";
import { RouterLink } from "../../../components/router-link.tsx";
import { formatDate } from "../../../lib/format.ts";
import { useSession } from "../../../lib/session.ts";
import { useModerationAction, useQueue } from "../api/queue.ts";
import { useRules } from "../api/rules.ts";
import { WaitingAppeals } from "./decisions.tsx";
import { FilterTerms } from "./filter-terms.tsx";

const KIND_LABELS: Record<ReportKind, string> = {
  post: "Post",
  comment: "Comment",
  user: "Profile",
  "remote-reply": "Reply from the fediverse",
};
const STATUS_LABELS: Record<ReportStatus, string> = { open: "Open", dismissed: "Dismissed", actioned: "Acted on" };

/** The moderators' queue: reported items, the longest waiting first, each with the decisions it allows. */
export function ModerationQueue() {
  const [status, setStatus] = useState<ReportStatus>("open");
  const [kind, setKind] = useState<ReportKind | "">("");
  const [rule, setRule] = useState("");
  const [origin, setOrigin] = useState<ReportOrigin | "">("");
  const queue = useQueue({ status, kind: kind || undefined, rule: rule || undefined, origin: origin || undefined });
  const [selected, setSelected] = useState<QueueItem[]>([]);
  const toggle = (item: QueueItem, on: boolean) =>
    setSelected((now) => (on ? [...now, item] : now.filter((other) => other !== item)));
  const session = useSession();
  // Said here, not in the entry: an item acted on leaves the open queue as it reloads.
  const [done, setDone] = useState<string | null>(null);
  return (
    <Stack gap="5">
      <Heading as="h1" size="2xl">
        Moderation
      </Heading>
      <HStack gap="4" flexWrap="wrap">
        <SelectField label="Reports" size="sm" width="40" value={status} options={STATUS_LABELS} onChange={setStatus} />
        <Field.Root width="auto">
          <Field.Label>Kind</Field.Label>
          <NativeSelect.Root size="sm" width="56">
            <NativeSelect.Field value={kind} onChange={(event) => setKind(event.target.value as ReportKind | "")}>
              <option value="">Everything</option>
              {REPORT_KINDS.map((value) => (
                <option key={value} value={value}>
                  {KIND_LABELS[value]}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <RuleSelect label="Rule" choose="Any rule" value={rule} onChange={setRule} spam />
        <Field.Root width="auto">
          <Field.Label>Reported by</Field.Label>
          <NativeSelect.Root size="sm" width="48">
            <NativeSelect.Field value={origin} onChange={(event) => setOrigin(event.target.value as ReportOrigin | "")}>
              <option value="">Anyone</option>
              <option value="local">Readers here</option>
              <option value="remote">Other servers</option>
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
      </HStack>
      {status === "open" && selected.length > 0 && (
        <BulkDecision
          items={selected}
          onDone={(said) => {
            setSelected([]);
            setDone(said);
          }}
        />
      )}
      {done && (
        <Text role="status" color="green.fg">
          {done}
        </Text>
      )}
      <WaitingAppeals />
      <PagedList pages={queue} label="Loading the queue" empty="Nothing is waiting for a moderator.">
        {(items) => (
          <Stack as="ul" listStyleType="none" gap="4" aria-label="Reported items">
            {items.map((item) => (
              <QueueEntry
                key={`${item.target.kind}:${item.target.id}`}
                item={item}
                open={status === "open"}
                onDone={setDone}
                selected={selected.some((other) => other.target.id === item.target.id)}
                onSelect={(on) => toggle(item, on)}
              />
            ))}
          </Stack>
        )}
      </PagedList>
      {can(session, "manage-rules") && <FilterTerms />}
    </Stack>
  );
}

const DECISIONS: { action: ModerationAction; label: string; fits: (item: QueueItem) => boolean }[] = [
  { action: "dismiss", label: "Dismiss", fits: () => true },
  { action: "hide", label: "Hide", fits: (item) => item.target.kind !== "user" && item.state !== "hidden" },
  { action: "remove", label: "Remove", fits: (item) => item.target.kind !== "user" && item.state !== "removed" },
  {
    action: "restore",
    label: "Restore",
    fits: (item) =>
      item.state !== "visible" && item.state !== "held" && item.state !== "limited" && item.target.kind !== "user",
  },
  {
    action: "restore",
    label: "Lift the suspension",
    fits: (item) => item.target.kind === "user" && item.state === "hidden",
  },
  {
    action: "restore",
    label: "Lift the limit",
    fits: (item) => item.target.kind === "user" && item.state === "limited",
  },
  { action: "restore", label: "Approve", fits: (item) => item.state === "held" },
  { action: "warn", label: "Warn the author", fits: (item) => item.target.kind !== "remote-reply" },
  {
    action: "limit",
    label: "Limit the author",
    fits: (item) => item.target.kind !== "remote-reply" && item.state !== "hidden" && item.state !== "limited",
  },
  {
    action: "suspend",
    label: "Suspend the author",
    fits: (item) => item.target.kind !== "remote-reply" && item.state !== "hidden",
  },
];

/** The site's rules to choose from, then Other (and Spam, where reports name it). */
function RuleSelect(props: {
  label: string;
  choose: string;
  value: string;
  onChange: (rule: string) => void;
  spam?: boolean;
}) {
  const rules = useRules();
  return (
    <Field.Root width="auto">
      <Field.Label>{props.label}</Field.Label>
      <NativeSelect.Root size="sm" width="64">
        <NativeSelect.Field value={props.value} onChange={(event) => props.onChange(event.target.value)}>
          <option value="">{props.choose}</option>
          {(rules.data?.rules ?? []).map((entry) => (
            <option key={entry.id} value={entry.id}>
              {entry.number}. {entry.title}
            </option>
          ))}
          {props.spam && <option value="spam">Spam</option>}
          <option value="other">Other</option>
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

const BULK: { action: ModerationAction; label: string }[] = [
  { action: "dismiss", label: "Dismiss" },
  { action: "hide", label: "Hide" },
  { action: "remove", label: "Remove" },
];

/** One decision for several selected items, one after the other, its progress said as it goes. */
function BulkDecision({ items, onDone }: { items: QueueItem[]; onDone: (said: string) => void }) {
  const act = useModerationAction();
  const [rule, setRule] = useState("");
  const [progress, setProgress] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const decide = async (action: ModerationAction, label: string) => {
    setError(null);
    let done = 0;
    for (const item of items) {
      setProgress(`${label}: ${done + 1} of ${items.length}…`);
      try {
        await act.mutateAsync({
          target: item.target,
          action,
          rule: rule || "other",
          note: "",
          reportIds: item.reportIds,
        });
        done++;
      } catch (failure) {
        setError(failure);
      }
    }
    setProgress(null);
    onDone(`${label}: ${done} of ${items.length} selected items.`);
  };
  return (
    <Stack as="section" aria-label="Decide for the selected items" gap="2" borderWidth="1px" borderRadius="md" p="3">
      <Text fontSize="sm" fontWeight="medium">
        {items.length} selected
      </Text>
      <HStack gap="3" align="flex-end" flexWrap="wrap">
        <RuleSelect label="Rule for the selected" choose="Choose the rule they break" value={rule} onChange={setRule} />
        {BULK.map(({ action, label }) => (
          <Button
            key={action}
            size="sm"
            variant={action === "dismiss" ? "outline" : "solid"}
            colorPalette={action === "remove" ? "red" : undefined}
            disabled={progress !== null || (action !== "dismiss" && !rule)}
            aria-describedby={rule ? undefined : "bulk-why"}
            onClick={() => void decide(action, `${label} selected`)}
          >
            {label} selected
          </Button>
        ))}
      </HStack>
      {!rule && (
        <Text id="bulk-why" fontSize="sm" color="fg.muted">
          Choose the rule they break to act on them; Dismiss needs none.
        </Text>
      )}
      {progress && (
        <Text role="status" fontSize="sm">
          {progress}
        </Text>
      )}
      <ErrorLines error={error} />
    </Stack>
  );
}

function QueueEntry({
  item,
  open,
  onDone,
  selected,
  onSelect,
}: {
  item: QueueItem;
  open: boolean;
  onDone: (said: string) => void;
  selected: boolean;
  onSelect: (on: boolean) => void;
}) {
  const act = useModerationAction();
  // The rule the reports name most, chosen already; the moderator may change it.
  const [rule, setRule] = useState(() => item.reasons.find((reason) => reason.rule)?.rule ?? "");
  const [note, setNote] = useState("");
  const titleId = `queue-${item.target.id}`;
  const decide = (action: ModerationAction, label: string) =>
    act.mutate(
      { target: item.target, action, rule: rule || "other", note, reportIds: open ? item.reportIds : undefined },
      { onSuccess: (result) => onDone(`${label}: “${item.preview.title}”, entry ${result.logSeq} of the public log.`) },
    );
  return (
    <Box as="li" borderWidth="1px" borderRadius="md" p="4" aria-labelledby={titleId}>
      <Stack gap="3">
        <HStack gap="2" flexWrap="wrap">
          {open && (
            <CheckboxField
              label={`Select “${item.preview.title}”`}
              hideLabel
              checked={selected}
              onChange={(event) => onSelect(event.target.checked)}
            />
          )}
          <Badge>{KIND_LABELS[item.target.kind]}</Badge>
          {item.state !== "visible" && <Badge colorPalette="orange">{item.state}</Badge>}
          <Text fontSize="sm" color="fg.muted">
            {item.reportsCount} {item.reportsCount === 1 ? "report" : "reports"} since{" "}
            {formatDate(item.firstReportedAt)}
          </Text>
        </HStack>
        <Heading as="h2" size="md" id={titleId}>
          <RouterLink to={item.preview.path}>{item.preview.title}</RouterLink>
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          By {item.preview.author}
        </Text>
        {item.preview.text && (
          <Text whiteSpace="pre-wrap" borderStartWidth="3px" ps="3">
            {item.preview.text}
          </Text>
        )}
        <Text fontSize="sm">Why: {item.reasons.map((reason) => `${reason.reason} (${reason.count})`).join(", ")}</Text>
        {item.notes.length > 0 && (
          <Stack as="ul" gap="1" fontSize="sm" aria-label="Reporters' notes">
            {item.notes.map((text) => (
              <Text as="li" key={text} ms="4">
                “{text}”
              </Text>
            ))}
          </Stack>
        )}
        {item.history.length > 0 && (
          <Text fontSize="sm" color="fg.muted">
            Earlier decisions about this author:{" "}
            {item.history.map((entry) => `${entry.action} (${entry.rule}, ${formatDate(entry.at)})`).join("; ")}
          </Text>
        )}
        {open && (
          <Stack gap="2">
            <HStack gap="3" align="flex-end" flexWrap="wrap">
              <RuleSelect label="Rule" choose="Choose the rule it breaks" value={rule} onChange={setRule} />
            </HStack>
            <Field.Root width="auto">
              <Field.Label>Note to the author (sent with the decision)</Field.Label>
              <Textarea
                size="sm"
                rows={2}
                maxLength={1000}
                value={note}
                onChange={(event) => setNote(event.target.value)}
              />
            </Field.Root>
            <HStack gap="2" flexWrap="wrap">
              {DECISIONS.filter((decision) => decision.fits(item)).map((decision) => (
                <Button
                  key={decision.label}
                  size="sm"
                  variant={decision.action === "dismiss" ? "outline" : "solid"}
                  colorPalette={decision.action === "remove" || decision.action === "suspend" ? "red" : undefined}
                  disabled={act.isPending || (decision.action !== "dismiss" && decision.label !== "Approve" && !rule)}
                  aria-describedby={rule ? undefined : `${titleId}-why`}
                  onClick={() => decide(decision.action, decision.label)}
                >
                  {decision.label}
                </Button>
              ))}
            </HStack>
            {!rule && (
              <Text id={`${titleId}-why`} fontSize="sm" color="fg.muted">
                Choose the rule it breaks to act; Dismiss and Approve need none.
              </Text>
            )}
            <ErrorLines error={act.error} />
          </Stack>
        )}
      </Stack>
    </Box>
  );
}
