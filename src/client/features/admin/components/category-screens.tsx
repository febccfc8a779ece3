import { Box, Button, Heading, HStack, Input, Link, Spinner, Stack, Table, Text } from "@chakra-ui/react";
import { tableSlotRecipe } from "@chakra-ui/react/theme";
import { useNavigate } from "react-router-dom";
import { type Category, categoryInputSchema } from "#shared/schemas/categories.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { SubmitButton } from "../../../components/form/submit-button.tsx";
import { TextField } from "../../../components/form/text-field.tsx";
import { useZodForm } from "../../../components/form/use-zod-form.ts";
import { RouterLink } from "../../../components/router-link.tsx";
import { UserChip } from "../../../components/user-chip.tsx";
import { formatDate } from "../../../lib/format.ts";
import { useSlotRecipes } from "../../../lib/use-recipes.ts";
import { useCategoryMutation } from "../api/categories.ts";

export function AddCategoryForm() {
  const navigate = useNavigate();
  const save = useCategoryMutation();
  const form = useZodForm(categoryInputSchema, {
    serverError: save.error,
    defaultValues: { title: "" },
  });
  const error = form.formState.errors.title;
  const onSubmit = form.handleSubmit(({ title }) =>
    save.mutate({ title }, { onSuccess: () => navigate("/category-list") }),
  );
  return (
    <Stack asChild gap="4">
      <form onSubmit={onSubmit} noValidate>
        <Heading as="h1" size="2xl">
          Add New Category
        </Heading>
        <Text color="fg.muted">These are the categories users will select when creating a post.</Text>
        <Input
          {...form.register("title")}
          placeholder="New Category"
          aria-label="New Category"
          aria-invalid={Boolean(error)}
        />
        {error && (
          <Text role="alert" color="fg.error" fontSize="sm">
            {error.message}
          </Text>
        )}
        <ErrorLines error={save.error} />
        <SubmitButton pending={save.isPending} alignSelf="stretch">
          Add new Category
        </SubmitButton>
      </form>
    </Stack>
  );
}

export function CategoryTable({
  categories,
  loading,
  error,
}: {
  categories: Category[];
  loading: boolean;
  error: unknown;
}) {
  useSlotRecipes({ table: tableSlotRecipe });
  if (loading) {
    return (
      <HStack gap="3">
        <Spinner />
        <Text>Product categories list are loading please wait...</Text>
      </HStack>
    );
  }
  return (
    <Stack gap="3">
      <ErrorLines error={error} />
      {!error && categories.length === 0 && <Text color="fg.muted">No category Found</Text>}
      {categories.length > 0 && (
        <Box overflowX="auto">
          <Table.Root size="sm" variant="outline">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Author</Table.ColumnHeader>
                <Table.ColumnHeader>Title</Table.ColumnHeader>
                <Table.ColumnHeader>Created At</Table.ColumnHeader>
                <Table.ColumnHeader>Edit</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {categories.map((category) => (
                <Table.Row key={category.id}>
                  <Table.Cell>
                    <UserChip user={category.user} link={false} detail={category.user.email} />
                  </Table.Cell>
                  <Table.Cell>{category.title}</Table.Cell>
                  <Table.Cell>{formatDate(category.createdAt)}</Table.Cell>
                  <Table.Cell>
                    <Link asChild color="teal.fg">
                      <RouterLink to={`/update-category/${category.id}`} aria-label={`Edit ${category.title}`}>
                        Edit
                      </RouterLink>
                    </Link>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Box>
      )}
    </Stack>
  );
}

export function UpdateCategoryForm({ category }: { category: Category }) {
  const navigate = useNavigate();
  const save = useCategoryMutation();
  const form = useZodForm(categoryInputSchema, {
    serverError: save.error,
    defaultValues: { title: category.title },
  });
  const done = { onSuccess: () => navigate("/category-list") };
  const onSubmit = form.handleSubmit(({ title }) => save.mutate({ id: category.id, title }, done));
  return (
    <Stack asChild gap="4">
      <form onSubmit={onSubmit} noValidate>
        <Heading as="h1" size="2xl">
          Update Category
        </Heading>
        <TextField label="Title" registration={form.register("title")} error={form.formState.errors.title} />
        <ErrorLines error={save.error} />
        <HStack gap="3">
          <SubmitButton pending={save.isPending} alignSelf="stretch">
            Update Category
          </SubmitButton>
          <Button
            colorPalette="red"
            variant="outline"
            disabled={save.isPending}
            onClick={() => save.mutate({ id: category.id, remove: true }, done)}
          >
            Delete Category
          </Button>
        </HStack>
      </form>
    </Stack>
  );
}
