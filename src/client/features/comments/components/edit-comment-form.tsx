import { Heading, Stack } from "@chakra-ui/react";
import { useNavigate } from "react-router-dom";
import { type Comment, commentUpdateSchema } from "#shared/schemas/comments.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { SubmitButton } from "../../../components/form/submit-button.tsx";
import { TextField } from "../../../components/form/text-field.tsx";
import { useZodForm } from "../../../components/form/use-zod-form.ts";
import { useUpdateComment } from "../api/comments.ts";

/** After the update the reader returns to the post. */
export function EditCommentForm({ comment }: { comment: Comment }) {
  const navigate = useNavigate();
  const update = useUpdateComment();
  const form = useZodForm(commentUpdateSchema, {
    serverError: update.error,
    defaultValues: { description: comment.description },
  });
  const onSubmit = form.handleSubmit(({ description }) =>
    update.mutate({ id: comment.id, description }, { onSuccess: () => navigate(`/posts/${comment.postId}`) }),
  );
  return (
    <Stack asChild gap="5">
      <form onSubmit={onSubmit} noValidate>
        <Heading as="h1" size="xl">
          Edit your comment
        </Heading>
        <TextField
          label="Comment"
          multiline
          registration={form.register("description")}
          error={form.formState.errors.description}
        />
        <ErrorLines error={update.error} />
        <SubmitButton pending={update.isPending}>Update</SubmitButton>
      </form>
    </Stack>
  );
}
