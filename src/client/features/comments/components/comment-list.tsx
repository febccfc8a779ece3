import { Box, Button, Heading, HStack, Stack, Text } from "@chakra-ui/react";
import { useState } from "react";
import type { Comment } from "#shared/schemas/comments.ts";
import { ActionButton } from "../../../components/action-button.tsx";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { EditIcon, TrashIcon } from "../../../components/icons.tsx";
import { RouterLink } from "../../../components/router-link.tsx";
import { TimeAgo } from "../../../components/time-ago.tsx";
import { UserChip } from "../../../components/user-chip.tsx";
import { useDeleteComment, useOlderComments } from "../api/comments.ts";

/** Edit and delete show for the comment's author only (compared by user id). */
interface CommentListProps {
  postId: string;
  comments: Comment[];
  nextCursor: string | null;
  count: number;
  viewerId: string | null;
  /** What a reader can do about someone else's comment: report it. */
  actions?: (comment: Comment) => React.ReactNode;
}

export function CommentList({ postId, comments: firstPage, nextCursor, count, viewerId, actions }: CommentListProps) {
  const remove = useDeleteComment();
  const [showOlder, setShowOlder] = useState(false);
  const older = useOlderComments(postId, nextCursor, showOlder);
  const comments = [...firstPage, ...(older.data?.pages.flatMap((page) => page.items) ?? [])];
  const hasMore = nextCursor !== null && (!showOlder || older.hasNextPage);
  return (
    <Stack gap="4">
      <Heading as="h2" size="lg">
        {count === 0 ? "No comments" : `${count} ${count === 1 ? "comment" : "comments"}`}
      </Heading>
      <ErrorLines error={remove.error} />
      <Stack as="ul" listStyleType="none" gap="3">
        {comments.map((comment) => (
          <Box as="li" key={comment.id} borderWidth="1px" borderRadius="md" p="3">
            <HStack gap="2" mb="1">
              {comment.importedAuthor ? (
                // Brought by an import: its writer has no account here, only their name.
                <Text fontSize="sm" fontWeight="medium">
                  {comment.importedAuthor}{" "}
                  <Text as="span" fontWeight="normal" color="fg.muted">
                    (imported)
                  </Text>
                </Text>
              ) : (
                <UserChip user={comment.user} link={false} fontSize="sm" />
              )}
              <Text fontSize="xs" color="fg.muted">
                <TimeAgo iso={comment.createdAt} />
              </Text>
              {viewerId !== comment.user.id && actions && (
                <HStack ms="auto" gap="1">
                  {actions(comment)}
                </HStack>
              )}
              {viewerId === comment.user.id && (
                <HStack ms="auto" gap="1">
                  <Button asChild size="xs" variant="ghost" aria-label="Edit comment">
                    <RouterLink to={`/update-comment/${comment.id}`}>
                      <EditIcon />
                    </RouterLink>
                  </Button>
                  <Button
                    size="xs"
                    variant="ghost"
                    colorPalette="red"
                    aria-label="Delete comment"
                    disabled={remove.isPending}
                    // As a post does: a comment deleted is gone, so the tap asks first.
                    onClick={() => window.confirm("Delete this comment?") && remove.mutate(comment.id)}
                  >
                    <TrashIcon />
                  </Button>
                </HStack>
              )}
            </HStack>
            <Text whiteSpace="pre-wrap">{comment.description}</Text>
          </Box>
        ))}
      </Stack>
      <ErrorLines error={older.error} />
      {hasMore && (
        <ActionButton
          variant="outline"
          size="sm"
          alignSelf="flex-start"
          busy={older.isFetching}
          onClick={() => (showOlder ? void older.fetchNextPage() : setShowOlder(true))}
        >
          {older.isFetching ? "Loading..." : "Load older comments"}
        </ActionButton>
      )}
    </Stack>
  );
}
