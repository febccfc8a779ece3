import { Button, Stack } from "@chakra-ui/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { commentUpdateSchema } from "../../../../shared/schemas/comments.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { TextField } from "../../../components/form/text-field.tsx";
import { useCreateComment } from "../api/comments.ts";

export function CommentForm({ postId }: { postId: string }) {
  const create = useCreateComment();
  const form = useForm<{ description: string }>({
    resolver: zodResolver(commentUpdateSchema),
    mode: "onTouched",
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
        <Button type="submit" colorPalette="teal" alignSelf="flex-start" disabled={create.isPending}>
          {create.isPending ? "Loading please wait..." : "Submit"}
        </Button>
      </form>
    </Stack>
  );
}
