import { Box, Button, Heading, Spinner, Stack, Text } from "@chakra-ui/react";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { useCategories } from "../api/get-categories.ts";

/** Clicking a title filters the posts; the chosen one is marked. */
export function CategorySidebar({ selected, onSelect }: { selected: string; onSelect: (title: string) => void }) {
  const categories = useCategories();
  const items = categories.data?.items ?? [];
  return (
    <Box as="nav" aria-labelledby="categories-heading" borderWidth="1px" borderRadius="lg" p="4" bg="bg.panel">
      <Heading as="h2" id="categories-heading" size="md" mb="3">
        Categories
      </Heading>
      {categories.isPending && <Spinner size="sm" aria-label="Loading categories" />}
      <ErrorLines error={categories.error} />
      {categories.isSuccess && items.length === 0 && <Text color="fg.muted">No Category Found</Text>}
      <Stack as="ul" listStyleType="none" gap="1">
        {items.map((category) => (
          <li key={category.id}>
            <Button
              variant={selected === category.title ? "subtle" : "ghost"}
              colorPalette="teal"
              size="sm"
              width="full"
              justifyContent="flex-start"
              aria-pressed={selected === category.title}
              onClick={() => onSelect(category.title)}
            >
              {category.title}
            </Button>
          </li>
        ))}
      </Stack>
    </Box>
  );
}
