import { Field, HStack, Input, Stack, Text } from "@chakra-ui/react";
import { memo } from "react";
import { type FieldValues, type UseFormReturn, useFormState, useWatch } from "react-hook-form";
import type { PostStatus } from "#shared/schemas/posts.ts";
import { SubmitButton } from "../../../components/form/submit-button.tsx";
import { formatUtcOffset, toLocalInput } from "../../../lib/format.ts";
import { useHydrated } from "../../../lib/use-hydrated.tsx";

type PublishingValues = { status?: PostStatus | undefined; publishAt?: string | undefined };

/**
 * The spec's button (publish now; docs/specification.md §Create Blog) with Save draft and Schedule beside it; each sets
 * the status the form is sent with. Schedule uses the time above it, in the author's own time zone.
 */
function PublishControlsOf<T extends FieldValues & PublishingValues>({
  form: anyForm,
  pending,
  submitLabel,
  isPublished = false,
}: {
  form: UseFormReturn<T, unknown, FieldValues>;
  pending: boolean;
  /** The spec's text for the button that publishes at once ("Create", "Update"). */
  submitLabel: string;
  /** Editing a post that is out: a draft takes it off the site. */
  isPublished?: boolean;
}) {
  // Only these two fields are touched here, whatever else the form holds.
  const form = anyForm as unknown as UseFormReturn<PublishingValues>;
  const intent = useWatch({ control: form.control, name: "status" });
  const error = useFormState({ control: form.control, name: "publishAt" }).errors.publishAt;
  // The author's zone and clock are the browser's: a page the server rendered names them once it is hydrated. The zone
  // as its offset: naming it (Europe/Berlin) takes Intl, whose first use costs a phone a tenth of a second.
  const hydrated = useHydrated();
  const zone = hydrated ? formatUtcOffset() : "";
  const choose = (status: PostStatus) => () => form.setValue("status", status);
  const button = (status: PostStatus, label: string, variant: "solid" | "outline") => (
    <SubmitButton pending={pending && intent === status} disabled={pending} variant={variant} onClick={choose(status)}>
      {label}
    </SubmitButton>
  );
  return (
    <Stack gap="4">
      <Field.Root invalid={Boolean(error)} maxW="sm">
        <Field.Label>Publish later, on</Field.Label>
        <Input
          type="datetime-local"
          min={hydrated ? toLocalInput(new Date().toISOString()) : undefined}
          {...form.register("publishAt")}
        />
        <Field.HelperText>Your time{zone && ` (${zone})`}; then press Schedule.</Field.HelperText>
        <Field.ErrorText>{error?.message}</Field.ErrorText>
      </Field.Root>
      <HStack gap="3" wrap="wrap">
        {button("published", submitLabel, "solid")}
        {button("draft", "Save draft", "outline")}
        {button("scheduled", "Schedule", "outline")}
      </HStack>
      {isPublished && (
        <Text fontSize="sm" color="fg.muted">
          Save draft or Schedule takes this post off the site until it is published again.
        </Text>
      )}
    </Stack>
  );
}

/** Renders again only when its own fields' state, `pending` or the hydration does. */
export const PublishControls = memo(PublishControlsOf) as typeof PublishControlsOf;
