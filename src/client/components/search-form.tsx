import { Box, Button, HStack, Input, NativeSelect } from "@chakra-ui/react";
import type { FormEvent } from "react";
import { useNavigate } from "react-router-dom";
import type { PostFilter } from "#shared/reader-pages.ts";
import { SearchIcon } from "./icons.tsx";

/**
 * Search: a plain GET form to `/search`, so it works on a server-rendered page before any script has loaded; once
 * the app runs, it navigates without reloading. The full form (the search page) also picks a category and keeps
 * an author filter.
 */
export function SearchForm({
  filter = {},
  categories,
  compact = false,
}: {
  filter?: PostFilter;
  /** The category titles to choose from (the full form). */
  categories?: string[];
  compact?: boolean;
}) {
  const navigate = useNavigate();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(event.currentTarget)) {
      if (typeof value === "string" && value.trim()) params.set(name, value.trim());
    }
    navigate(`/search?${params}`);
  };
  return (
    <search>
      <HStack asChild gap="2" wrap={compact ? "nowrap" : "wrap"} align="stretch">
        <form action="/search" method="get" onSubmit={onSubmit}>
          <Input
            // A new search's words, when the address changes under the same form.
            key={filter.q ?? ""}
            type="search"
            name="q"
            defaultValue={filter.q ?? ""}
            aria-label="Search posts"
            placeholder={compact ? "Search" : "Words, a “quoted phrase”, -leave out"}
            size={compact ? "sm" : "md"}
            maxLength={200}
            width={compact ? "44" : undefined}
            flex={compact ? undefined : "1"}
            minW={compact ? undefined : "56"}
          />
          {categories && (
            <NativeSelect.Root width="auto" minW="48">
              <NativeSelect.Field
                key={filter.category ?? ""}
                name="category"
                defaultValue={filter.category ?? ""}
                aria-label="Category"
              >
                <option value="">All categories</option>
                {categories.map((title) => (
                  <option key={title} value={title}>
                    {title}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          )}
          {filter.author && <input type="hidden" name="author" value={filter.author} />}
          <Button
            type="submit"
            size={compact ? "sm" : "md"}
            variant={compact ? "outline" : "solid"}
            colorPalette="teal"
          >
            <SearchIcon />
            {compact ? (
              <Box as="span" srOnly>
                Search
              </Box>
            ) : (
              "Search"
            )}
          </Button>
        </form>
      </HStack>
    </search>
  );
}
