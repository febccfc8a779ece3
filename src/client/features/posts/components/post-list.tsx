import { SimpleGrid } from "@chakra-ui/react";
import { type ReactNode, useEffect, useRef } from "react";
import type { PostFilter } from "#shared/reader-pages.ts";
import { PagedList } from "../../../components/query-state.tsx";
import { usePosts } from "../api/get-posts.ts";
import { PostCard } from "./post-card.tsx";

/**
 * Posts as cards (with `q`: search results, most relevant first); the next page loads when the reader scrolls near
 * the end (or presses the button).
 */
export function PostList({ filter, empty = "No Blog Found" }: { filter: PostFilter; empty?: ReactNode }) {
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

  return (
    <PagedList pages={posts} label="Loading posts" empty={empty} gap="6">
      {(items) => (
        <>
          <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="5">
            {items.map((post, index) => (
              <PostCard key={post.id} post={post} priority={index === 0} />
            ))}
          </SimpleGrid>
          <div ref={sentinel} />
        </>
      )}
    </PagedList>
  );
}
