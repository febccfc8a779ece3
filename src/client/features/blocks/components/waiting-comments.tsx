import { Box, Button, Heading, HStack, Stack, Text } from "@chakra-ui/react";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { TimeAgo } from "../../../components/time-ago.tsx";
import { UserChip } from "../../../components/user-chip.tsx";
import { useDecideWaitingComment, useWaitingComments } from "../api/comments.ts";

/** On their own post, the author sees first-time commenters' comments waiting for them, to approve or decline. */
export function WaitingComments({ postId }: { postId: string }) {
  const waiting = useWaitingComments(postId);
  const decide = useDecideWaitingComment(postId);
  const items = waiting.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <Box as="section" aria-labelledby="waiting-comments" borderWidth="1px" borderRadius="md" p="4" my="4">
      <Heading as="h2" size="md" id="waiting-comments">
        Waiting for your approval ({items.length})
      </Heading>
      <Text fontSize="sm" color="fg.muted" mb="3">
        You hold comments from people who have not commented on your posts before.
      </Text>
      <ErrorLines error={decide.error} />
      <Stack as="ul" listStyleType="none" gap="3">
        {items.map((comment) => (
          <Stack as="li" key={comment.id} gap="2" borderTopWidth="1px" pt="3">
            <UserChip user={comment.user} detail={<TimeAgo iso={comment.createdAt} />} />
            <Text whiteSpace="pre-wrap">{comment.description}</Text>
            <HStack gap="2">
              <Button
                size="sm"
                colorPalette="teal"
                disabled={decide.isPending}
                onClick={() => decide.mutate({ id: comment.id, approve: true })}
              >
                Approve
              </Button>
              <Button
                size="sm"
                variant="outline"
                disabled={decide.isPending}
                onClick={() => decide.mutate({ id: comment.id, approve: false })}
              >
                Decline
              </Button>
            </HStack>
          </Stack>
        ))}
      </Stack>
    </Box>
  );
}
