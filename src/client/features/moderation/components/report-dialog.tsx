import { Button, CloseButton, Dialog, Field, Portal, RadioGroup, Stack, Text, Textarea } from "@chakra-ui/react";
import { dialogSlotRecipe } from "@chakra-ui/react/theme";
import { useState } from "react";
import type { ReportKind } from "#shared/schemas/moderation.ts";
import { CheckboxField } from "../../../components/form/checkbox-field.tsx";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { useSlotRecipes } from "../../../lib/use-recipes.ts";
import { useFileReport } from "../api/reports.ts";
import { useRules } from "../api/rules.ts";

export interface ReportTarget {
  kind: ReportKind;
  id: string;
  /** What is reported, as the dialog names it: "this comment". */
  label: string;
}

/** A reader says which rule an item breaks (or something else), with an optional note for the moderators. */
export default function ReportDialog({ target, onClose }: { target: ReportTarget; onClose: () => void }) {
  useSlotRecipes({ dialog: dialogSlotRecipe });
  const rules = useRules();
  const report = useFileReport();
  const [rule, setRule] = useState<string | null>(null);
  const [note, setNote] = useState("");
  const [forward, setForward] = useState(false);
  const choices = [
    ...(rules.data?.rules ?? []).map((item) => ({ value: item.id, label: `${item.number}. ${item.title}` })),
    { value: "other", label: "Something else (say what in the note)" },
  ];
  const done = report.isSuccess;
  return (
    <Dialog.Root open onOpenChange={(details) => !details.open && onClose()} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            {/* The form inside the dialog, not the dialog itself: a form given role=dialog is neither to a reader. */}
            <form
              style={{ display: "contents" }}
              onSubmit={(event) => {
                event.preventDefault();
                if (rule) report.mutate({ kind: target.kind, id: target.id, rule, note, forward });
              }}
            >
              <Dialog.Header>
                <Dialog.Title>Report {target.label}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                {done ? (
                  <Text role="status">Thank you. A moderator will look at it, and you will hear of the outcome.</Text>
                ) : (
                  <Stack gap="4">
                    <Field.Root required>
                      <Field.Label>Which rule does it break?</Field.Label>
                      <RadioGroup.Root
                        value={rule}
                        onValueChange={(details) => setRule(details.value)}
                        aria-label="Which rule does it break?"
                      >
                        <Stack gap="2">
                          {choices.map((choice) => (
                            <RadioGroup.Item key={choice.value} value={choice.value}>
                              <RadioGroup.ItemHiddenInput />
                              <RadioGroup.ItemIndicator />
                              <RadioGroup.ItemText>{choice.label}</RadioGroup.ItemText>
                            </RadioGroup.Item>
                          ))}
                        </Stack>
                      </RadioGroup.Root>
                    </Field.Root>
                    <Field.Root>
                      <Field.Label>A note for the moderators (optional)</Field.Label>
                      <Textarea
                        value={note}
                        maxLength={1000}
                        rows={3}
                        onChange={(event) => setNote(event.target.value)}
                      />
                    </Field.Root>
                    {target.kind === "remote-reply" && (
                      <CheckboxField
                        label="Also tell its own server (without your name)"
                        checked={forward}
                        onChange={(event) => setForward(event.target.checked)}
                      />
                    )}
                    <ErrorLines error={report.error ?? rules.error} />
                  </Stack>
                )}
              </Dialog.Body>
              <Dialog.Footer>
                {done ? (
                  <Button onClick={onClose}>Close</Button>
                ) : (
                  <>
                    <Button variant="outline" onClick={onClose}>
                      Cancel
                    </Button>
                    <Button type="submit" colorPalette="red" disabled={!rule || report.isPending}>
                      {report.isPending ? "Sending..." : "Send report"}
                    </Button>
                  </>
                )}
              </Dialog.Footer>
            </form>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
