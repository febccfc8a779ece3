import { Box, Button, Container, Flex, Heading } from "@chakra-ui/react";
import { useSearchParams } from "react-router-dom";
import { postFilterOf } from "../../../shared/reader-pages.ts";
import { CategorySidebar } from "../../features/categories/components/category-sidebar.tsx";
import { useCategories } from "../../features/categories/public.ts";
import { PostList } from "../../features/posts/components/post-list.tsx";
import { usePageTitle } from "../../lib/site-settings.ts";
import { pageTitles } from "../page-heads.ts";
import { NotFoundRoute } from "./not-found.tsx";

/** The chosen category lives in the URL (?category=), so a filtered list can be shared and survives a reload. */
export function PostsRoute() {
  const [params, setParams] = useSearchParams();
  const filter = postFilterOf(params);
  const category = filter.category ?? "";
  const categories = useCategories().data;
  // Whether the address names a category that does not exist (as the server's 404 page says): known once the whole
  // list of categories is here.
  const unknown =
    category !== "" &&
    categories?.nextCursor === null &&
    !categories.items.some((item) => item.title.toLowerCase() === category.toLowerCase());
  usePageTitle(unknown ? pageTitles.categoryNotFound : pageTitles.posts(category));
  if (unknown) return <NotFoundRoute />;
  return (
    <Container maxW="7xl" py="8">
      <Flex justify="space-between" align="center" mb="6" gap="4" wrap="wrap">
        <Heading as="h1" size="3xl">
          Latest Blogs
        </Heading>
        <Button variant="outline" colorPalette="teal" onClick={() => setParams({})}>
          View All Blogs
        </Button>
      </Flex>
      <Flex gap="6" direction={{ base: "column", lg: "row" }} align="flex-start">
        <Box width={{ base: "full", lg: "64" }} flexShrink={0}>
          <CategorySidebar selected={category} onSelect={(title) => setParams({ category: title })} />
        </Box>
        <Box flex="1" minW="0" width="full">
          <PostList filter={filter} />
        </Box>
      </Flex>
    </Container>
  );
}
