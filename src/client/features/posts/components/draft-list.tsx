import { Badge, Button, HStack, Link, Spinner, Stack, Text } from "@chakra-ui/react";
import { Link as RouterLink } from "react-router-dom";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { LoadMore } from "../../../components/load-more.tsx";
import { formatDate, formatLocalDateTime } from "../../../lib/format.ts";
import { useDrafts } from "../api/get-drafts.ts";

/** The signed-in author's drafts and scheduled posts (their own profile's Drafts tab), last edited first. */
export function DraftList() {
  const drafts = useDrafts();
  if (drafts.isPending) return <Spinner aria-label="Loading drafts" />;
  const items = drafts.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Stack gap="3">
      <ErrorLines error={drafts.error} />
      {drafts.isSuccess && items.length === 0 && <Text color="fg.muted">No drafts</Text>}
      <Stack as="ul" listStyleType="none" gap="3">
        {items.map((post) => (
          <HStack as="li" key={post.id} justify="space-between" gap="3" borderBottomWidth="1px" pb="2" wrap="wrap">
            <Stack gap="1">
              <Link asChild fontWeight="medium">
                <RouterLink to={`/posts/${post.id}`}>{post.title}</RouterLink>
              </Link>
              <HStack gap="2" fontSize="sm" color="fg.muted" wrap="wrap">
                {post.status === "scheduled" && post.publishedAt ? (
                  <Badge colorPalette="blue">Scheduled for {formatLocalDateTime(post.publishedAt)}</Badge>
                ) : (
                  <Badge colorPalette="orange">Draft</Badge>
                )}
                <Text as="span">
                  {post.category} · edited {formatDate(post.updatedAt)}
                </Text>
              </HStack>
            </Stack>
            <Button asChild size="xs" variant="outline">
              <RouterLink to={`/update-post/${post.id}`} aria-label={`Edit ${post.title}`}>
                Edit
              </RouterLink>
            </Button>
          </HStack>
        ))}
      </Stack>
      <LoadMore pages={drafts} />
    </Stack>
  );
}
