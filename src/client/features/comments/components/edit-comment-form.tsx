import { Button, Heading, Stack } from "@chakra-ui/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router-dom";
import { type Comment, commentUpdateSchema } from "../../../../shared/schemas/comments.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { TextField } from "../../../components/form/text-field.tsx";
import { useUpdateComment } from "../api/comments.ts";

/** After the update the reader returns to the post. */
export function EditCommentForm({ comment }: { comment: Comment }) {
  const navigate = useNavigate();
  const update = useUpdateComment();
  const form = useForm<{ description: string }>({
    resolver: zodResolver(commentUpdateSchema),
    mode: "onTouched",
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
        <Button type="submit" colorPalette="teal" alignSelf="flex-start" disabled={update.isPending}>
          {update.isPending ? "Loading please wait..." : "Update"}
        </Button>
      </form>
    </Stack>
  );
}
