import { Container, Heading, Stack, Text } from "@chakra-ui/react";
import { useSearchParams } from "react-router-dom";
import { postFilterOf } from "#shared/reader-pages.ts";
import { SearchForm } from "../../components/search-form.tsx";
import { useCategories } from "../../features/categories/public.ts";
import { PostList } from "../../features/posts/components/post-list.tsx";
import { usePageTitle } from "../../lib/site-settings.ts";
import { pageTitles } from "../page-heads.ts";

/** `/search?q=&category=&author=`: the words and filters live in the address, so results can be shared. */
export function SearchRoute() {
  const [params] = useSearchParams();
  const filter = postFilterOf(params, true);
  const categories = useCategories();
  usePageTitle(pageTitles.search(filter.q));
  return (
    <Container maxW="7xl" py="8">
      <Stack gap="6">
        <Heading as="h1" size="3xl">
          Search
        </Heading>
        <SearchForm filter={filter} categories={categories.data?.items.map((category) => category.title) ?? []} />
        {filter.q ? (
          <PostList filter={filter} />
        ) : (
          <Text color="fg.muted">
            Search the posts by their words: a word finds longer ones that start with it, a “quoted phrase” its exact
            words, and -word leaves out the posts that have it.
          </Text>
        )}
      </Stack>
    </Container>
  );
}
