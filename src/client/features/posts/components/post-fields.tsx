import { Box, Field, NativeSelect } from "@chakra-ui/react";
import { memo, useEffect, useRef, useState } from "react";
import { Controller, type FieldValues, type UseFormReturn, useFormState } from "react-hook-form";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { TextField } from "../../../components/form/text-field.tsx";
import { useCategories } from "../../categories/public.ts";
import { EditorField } from "./editor-field.tsx";

type PostFieldValues = { title: string; category: string; description: string };

/**
 * Title, category and the rich-text description: the part of a post Create Blog and Edit post share. With
 * `editorOnDemand`, the editor is fetched when the writer starts on these fields rather than with the page.
 */
function PostFieldsOf<T extends FieldValues & PostFieldValues>({
  form: anyForm,
  editorOnDemand = false,
}: {
  form: UseFormReturn<T, unknown, FieldValues>;
  editorOnDemand?: boolean;
}) {
  // The form shows at once; only the dropdown waits for the categories. Its select is registered once they are
  // here, so react-hook-form sets the chosen value (a restored draft's too) on options that exist.
  const categories = useCategories();
  // Only the three shared fields are touched here, whatever else the form holds.
  const form = anyForm as unknown as UseFormReturn<PostFieldValues>;
  // A restored draft has a body to edit: its editor comes at once.
  const [started, setStarted] = useState(() => !editorOnDemand || form.getValues("description") !== "");
  const start = () => setStarted(true);
  // The writer may have started on a form the server rendered before the page was the browser's.
  const fields = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (fields.current?.contains(document.activeElement)) setStarted(true);
  }, []);
  // Its own fields' errors: a change elsewhere in the form does not render these again.
  const { errors } = useFormState({ control: form.control, name: ["title", "category", "description"] });
  return (
    <Box ref={fields} display="contents" onFocusCapture={start} onPointerDownCapture={start}>
      <TextField label="Title" registration={form.register("title")} error={errors.title} />
      <Field.Root invalid={Boolean(errors.category)}>
        <Field.Label>Category</Field.Label>
        <NativeSelect.Root disabled={!categories.data}>
          {categories.data ? (
            <NativeSelect.Field {...form.register("category")} placeholder="Select a category">
              {categories.data.items.map((category) => (
                <option key={category.id} value={category.title}>
                  {category.title}
                </option>
              ))}
            </NativeSelect.Field>
          ) : (
            <NativeSelect.Field aria-busy={categories.isPending}>
              <option>Loading categories…</option>
            </NativeSelect.Field>
          )}
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <ErrorLines error={categories.error} />
        <Field.ErrorText>{errors.category?.message}</Field.ErrorText>
      </Field.Root>
      <Field.Root invalid={Boolean(errors.description)}>
        <Field.Label htmlFor="post-description">Description</Field.Label>
        <Controller
          control={form.control}
          name="description"
          render={({ field }) => (
            <EditorField
              wanted={started}
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
    </Box>
  );
}

/** Renders again only when its own fields' state does (`form` is the same object for the form's whole life). */
export const PostFields = memo(PostFieldsOf) as typeof PostFieldsOf;
