import { Badge, Button, HStack, Link, Stack, Text } from "@chakra-ui/react";
import { PagedList } from "../../../components/query-state.tsx";
import { RouterLink } from "../../../components/router-link.tsx";
import { formatDate, formatLocalDateTime } from "../../../lib/format.ts";
import { useDrafts } from "../api/get-drafts.ts";

/** The signed-in author's drafts and scheduled posts (their own profile's Drafts tab), last edited first. */
export function DraftList() {
  const drafts = useDrafts();
  return (
    <PagedList pages={drafts} label="Loading drafts" empty="No drafts">
      {(items) => (
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
      )}
    </PagedList>
  );
}
