import { Stack, Text } from "@chakra-ui/react";
import { commentUpdateSchema } from "#shared/schemas/comments.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { SubmitButton } from "../../../components/form/submit-button.tsx";
import { TextField } from "../../../components/form/text-field.tsx";
import { useZodForm } from "../../../components/form/use-zod-form.ts";
import { useCreateComment } from "../api/comments.ts";

export function CommentForm({ postId }: { postId: string }) {
  const create = useCreateComment();
  const form = useZodForm(commentUpdateSchema, {
    serverError: create.error,
    defaultValues: { description: "" },
  });
  const onSubmit = form.handleSubmit(({ description }) =>
    create.mutate({ postId, description }, { onSuccess: () => form.reset({ description: "" }) }),
  );
  return (
    <Stack asChild gap="3">
      <form onSubmit={onSubmit} noValidate>
        <TextField
          label="Add a comment"
          multiline
          registration={form.register("description")}
          error={form.formState.errors.description}
        />
        <ErrorLines error={create.error} />
        {create.data?.waitingForReview && (
          <Text role="status" color="fg.warning">
            Your comment is waiting for review: a moderator will look at it before anyone else sees it.
          </Text>
        )}
        <SubmitButton pending={create.isPending}>Submit</SubmitButton>
      </form>
    </Stack>
  );
}
