import { Button, Field, Heading, NativeSelect, Stack } from "@chakra-ui/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { Controller, useForm } from "react-hook-form";
import { useNavigate } from "react-router-dom";
import type { Category } from "../../../../shared/schemas/categories.ts";
import { type PostDetail, type PostUpdate, postUpdateSchema } from "../../../../shared/schemas/posts.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { TextField } from "../../../components/form/text-field.tsx";
import { useUpdatePost } from "../api/update-post.ts";
import { RichTextEditor } from "./rich-text-editor.tsx";

export function EditPostForm({ post, categories }: { post: PostDetail; categories: Category[] }) {
  const navigate = useNavigate();
  const update = useUpdatePost();
  const form = useForm<PostUpdate>({
    resolver: zodResolver(postUpdateSchema),
    mode: "onTouched",
    defaultValues: { title: post.title, description: post.description, category: post.category },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((input) =>
    update.mutate({ id: post.id, ...input }, { onSuccess: () => navigate("/posts") }),
  );
  return (
    <Stack asChild gap="5">
      <form onSubmit={onSubmit} noValidate>
        <Heading as="h1" size="2xl">
          Are you sure you want to edit {post.title}
        </Heading>
        <TextField label="Title" registration={form.register("title")} error={errors.title} />
        <Field.Root invalid={Boolean(errors.category)}>
          <Field.Label>Category</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field {...form.register("category")} placeholder="Select a category">
              {categories.map((category) => (
                <option key={category.id} value={category.title}>
                  {category.title}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <Field.ErrorText>{errors.category?.message}</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={Boolean(errors.description)}>
          <Field.Label htmlFor="post-description">Description</Field.Label>
          <Controller
            control={form.control}
            name="description"
            render={({ field }) => (
              <RichTextEditor
                id="post-description"
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                invalid={Boolean(errors.description)}
              />
            )}
          />
          <Field.ErrorText>{errors.description?.message}</Field.ErrorText>
        </Field.Root>
        <ErrorLines error={update.error} />
        <Button type="submit" colorPalette="teal" alignSelf="flex-start" disabled={update.isPending}>
          {update.isPending ? "Loading please wait..." : "Update"}
        </Button>
      </form>
    </Stack>
  );
}
