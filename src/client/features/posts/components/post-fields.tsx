import { Field, NativeSelect } from "@chakra-ui/react";
import { Controller, type FieldValues, type UseFormReturn } from "react-hook-form";
import type { Category } from "../../../../shared/schemas/categories.ts";
import { TextField } from "../../../components/form/text-field.tsx";
import { RichTextEditor } from "./rich-text-editor.tsx";

type PostFieldValues = { title: string; category: string; description: string };

/** Title, category and the rich-text description: the part of a post Create Blog and Edit post share. */
export function PostFields<T extends FieldValues & PostFieldValues>({
  form: anyForm,
  categories,
}: {
  form: UseFormReturn<T, unknown, FieldValues>;
  categories: Category[];
}) {
  // Only the three shared fields are touched here, whatever else the form holds.
  const form = anyForm as unknown as UseFormReturn<PostFieldValues>;
  const { errors } = form.formState;
  return (
    <>
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
    </>
  );
}
