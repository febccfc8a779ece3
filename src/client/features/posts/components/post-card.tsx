import { Badge, Box, Card, HStack, Link, Text } from "@chakra-ui/react";
import type { Post } from "#shared/schemas/posts.ts";
import { EyeIcon, StarIcon } from "../../../components/icons.tsx";
import { RouterLink } from "../../../components/router-link.tsx";
import { UserChip } from "../../../components/user-chip.tsx";
import { CoverImage } from "./cover-image.tsx";
import { PostReactions } from "./post-reactions.tsx";
import { PublishedDate } from "./published-date.tsx";

/** `priority`: the first card's cover is the page's largest paint, so it loads first; the others when scrolled to. */
export function PostCard({ post, priority = false }: { post: Post; priority?: boolean }) {
  return (
    <Card.Root as="article" overflow="hidden" size="sm" aria-labelledby={`post-${post.id}`}>
      {post.image ? (
        <CoverImage
          url={post.image}
          // One column on phones, two from md (48em), three from xl (80em) beside the 16rem sidebar.
          sizes="(min-width: 80em) 24vw, (min-width: 62em) 36vw, (min-width: 48em) 48vw, 100vw"
          priority={priority}
        />
      ) : (
        <Box aspectRatio={16 / 9} bgGradient="to-br" gradientFrom="teal.500" gradientTo="blue.600" />
      )}
      <Card.Body gap="3">
        <HStack justify="space-between" wrap="wrap" gap="2">
          <Badge colorPalette="teal" variant="subtle">
            {post.category}
          </Badge>
          {post.isFeatured && (
            <Badge colorPalette="yellow" variant="solid" aria-label="Featured post">
              <StarIcon /> Featured
            </Badge>
          )}
        </HStack>
        <Card.Title id={`post-${post.id}`} asChild>
          <Link asChild fontSize="lg" fontWeight="semibold">
            <RouterLink to={`/posts/${post.id}`}>{post.title}</RouterLink>
          </Link>
        </Card.Title>
        {post.excerpt && (
          <Text fontSize="sm" color="fg.muted" lineClamp={4}>
            {post.excerpt.map((part, index) =>
              part.match ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one excerpt never move
                <Box as="mark" key={index} bg="yellow.subtle" color="fg" px="0.5" borderRadius="sm">
                  {part.text}
                </Box>
              ) : (
                part.text
              ),
            )}
          </Text>
        )}
        <HStack gap="3" color="fg.muted" fontSize="sm" wrap="wrap">
          <PostReactions post={post} visitor="counts" />
          <HStack as="span" gap="1" aria-label={`${post.numViews} views`}>
            <EyeIcon /> {post.numViews}
          </HStack>
        </HStack>
        <Link asChild color="teal.fg" fontWeight="medium" alignSelf="flex-start">
          <RouterLink to={`/posts/${post.id}`}>Read More..</RouterLink>
        </Link>
      </Card.Body>
      <Card.Footer>
        <UserChip user={post.user} fontSize="sm">
          <Text fontSize="sm" color="fg.muted">
            · <PublishedDate post={post} />
          </Text>
        </UserChip>
      </Card.Footer>
    </Card.Root>
  );
}
