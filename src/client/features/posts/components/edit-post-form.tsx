import { Heading, Stack } from "@chakra-ui/react";
import { useNavigate } from "react-router-dom";
import type { Category } from "../../../../shared/schemas/categories.ts";
import { type PostDetail, postUpdateSchema } from "../../../../shared/schemas/posts.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { SubmitButton } from "../../../components/form/submit-button.tsx";
import { useZodForm } from "../../../components/form/use-zod-form.ts";
import { useUpdatePost } from "../api/update-post.ts";
import { PostFields } from "./post-fields.tsx";

export function EditPostForm({ post, categories }: { post: PostDetail; categories: Category[] }) {
  const navigate = useNavigate();
  const update = useUpdatePost();
  const form = useZodForm(postUpdateSchema, {
    serverError: update.error,
    defaultValues: { title: post.title, description: post.description, category: post.category },
  });
  const onSubmit = form.handleSubmit((input) =>
    update.mutate({ id: post.id, ...input }, { onSuccess: () => navigate("/posts") }),
  );
  return (
    <Stack asChild gap="5">
      <form onSubmit={onSubmit} noValidate>
        <Heading as="h1" size="2xl">
          Are you sure you want to edit {post.title}
        </Heading>
        <PostFields form={form} categories={categories} />
        <ErrorLines error={update.error} />
        <SubmitButton pending={update.isPending}>Update</SubmitButton>
      </form>
    </Stack>
  );
}
