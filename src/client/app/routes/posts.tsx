import { Box, Button, Container, Flex, Heading, HStack, Stack, Text } from "@chakra-ui/react";
import { useSearchParams } from "react-router-dom";
import { type PostFilter, postFilterOf } from "#shared/reader-pages.ts";
import { RouterLink } from "../../components/router-link.tsx";
import { CategorySidebar } from "../../features/categories/components/category-sidebar.tsx";
import { useCategories } from "../../features/categories/public.ts";
import { usePosts } from "../../features/posts/api/get-posts.ts";
import { PostList } from "../../features/posts/components/post-list.tsx";
import { FollowButton } from "../../features/users/public.tsx";
import { useSession } from "../../lib/session.ts";
import { usePageTitle } from "../../lib/site-settings.ts";
import { pageTitles } from "../page-heads.ts";
import { NotFoundRoute } from "./not-found.tsx";

/**
 * A signed-in reader's two feeds: every post, or the posts of the authors they follow (`?feed=following`, theirs
 * alone: the server renders the first for everyone).
 */
function FeedTabs({ following }: { following: boolean }) {
  const tab = (label: string, to: string, current: boolean) => (
    <Button asChild size="sm" variant={current ? "subtle" : "ghost"} colorPalette="teal">
      <RouterLink to={to} aria-current={current ? "page" : undefined}>
        {label}
      </RouterLink>
    </Button>
  );
  return (
    <HStack as="nav" aria-label="Feeds" gap="2" mb="5">
      {tab("All posts", "/posts", !following)}
      {tab("Following", "/posts?feed=following", following)}
    </HStack>
  );
}

/** An empty Following feed says why and offers to follow the authors of the latest posts. */
function FollowSuggestions({ me }: { me: string }) {
  const latest = usePosts({});
  const authors = new Map<string, string>();
  for (const post of latest.data?.pages[0]?.items ?? []) {
    if (post.user.id !== me) authors.set(post.user.id, `${post.user.firstName} ${post.user.lastName}`);
  }
  const suggested = [...authors].slice(0, 5);
  return (
    <Stack gap="3" borderWidth="1px" borderRadius="lg" p="5">
      <Text>
        Nothing here yet: this feed shows the posts of the authors you follow.
        {suggested.length > 0 && " Some who wrote lately:"}
      </Text>
      {suggested.length > 0 && (
        <Stack as="ul" gap="2" listStyleType="none">
          {suggested.map(([id, name]) => (
            <HStack as="li" key={id} justify="space-between" gap="3">
              <RouterLink to={`/profile/${id}`}>{name}</RouterLink>
              <FollowButton user={{ id, name }} />
            </HStack>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** The chosen category lives in the URL (?category=), so a filtered list can be shared and survives a reload. */
export function PostsRoute() {
  const [params, setParams] = useSearchParams();
  const session = useSession();
  const following = Boolean(session) && params.get("feed") === "following";
  const filter: PostFilter = following ? { following: true } : postFilterOf(params);
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
      {session && <FeedTabs following={following} />}
      <Flex gap="6" direction={{ base: "column", lg: "row" }} align="flex-start">
        <Box width={{ base: "full", lg: "64" }} flexShrink={0}>
          <CategorySidebar selected={category} onSelect={(title) => setParams({ category: title })} />
        </Box>
        <Box flex="1" minW="0" width="full">
          <PostList filter={filter} empty={following && session ? <FollowSuggestions me={session.id} /> : undefined} />
        </Box>
      </Flex>
    </Container>
  );
}
