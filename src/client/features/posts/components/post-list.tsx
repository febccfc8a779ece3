import { SimpleGrid, Spinner, Stack, Text } from "@chakra-ui/react";
import { useEffect, useRef } from "react";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { LoadMore } from "../../../components/load-more.tsx";
import { usePosts } from "../api/get-posts.ts";
import type { PostFilter } from "../api/keys.ts";
import { PostCard } from "./post-card.tsx";

/**
 * Posts as cards (with `q`: search results, most relevant first); the next page loads when the reader scrolls near
 * the end (or presses the button).
 */
export function PostList({ filter }: { filter: PostFilter }) {
  const posts = usePosts(filter);
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = posts;

  useEffect(() => {
    const element = sentinel.current;
    if (!element || !hasNextPage || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: "400px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const items = posts.data?.pages.flatMap((page) => page.items) ?? [];
  if (posts.isPending) return <Spinner aria-label="Loading posts" />;
  return (
    <Stack gap="6">
      <ErrorLines error={posts.error} />
      {posts.isSuccess && items.length === 0 && <Text color="fg.muted">No Blog Found</Text>}
      <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="5">
        {items.map((post, index) => (
          <PostCard key={post.id} post={post} priority={index === 0} />
        ))}
      </SimpleGrid>
      <div ref={sentinel} />
      <LoadMore pages={posts} />
    </Stack>
  );
}
