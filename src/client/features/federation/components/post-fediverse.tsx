import { Button, Heading, Stack, Text } from "@chakra-ui/react";
import type { RemoteReply } from "#shared/schemas/federation.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { TrashIcon } from "../../../components/icons.tsx";
import { usePostFediverse, useReplyDecision } from "../api/replies.ts";
import { RemoteReplyCard } from "./remote-reply.tsx";

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? "" : "s"}`;

/**
 * Under a post's comments: its replies from the fediverse, and its likes and boosts there (apart from local likes).
 * Shows nothing while the fediverse has sent nothing. The post's author and admins may remove a reply.
 */
export function PostFediverse({
  postId,
  canModerate,
  replyActions,
}: {
  postId: string;
  canModerate: boolean;
  /** What a reader can do about a reply: report it. */
  replyActions?: (reply: RemoteReply) => React.ReactNode;
}) {
  const fediverse = usePostFediverse(postId);
  const decide = useReplyDecision();
  const data = fediverse.data;
  if (!data || (data.replies.length === 0 && data.likes === 0 && data.boosts === 0)) return null;
  return (
    <Stack as="section" aria-label="From the fediverse" gap="3">
      <Heading as="h2" size="md">
        From the fediverse
      </Heading>
      <Text fontSize="sm" color="fg.muted">
        {plural(data.likes, "like")} · {plural(data.boosts, "boost")} · {plural(data.replies.length, "reply")}
      </Text>
      <ErrorLines error={decide.error} />
      <Stack as="ul" listStyleType="none" gap="3">
        {data.replies.map((reply) => (
          <li key={reply.id}>
            <RemoteReplyCard
              reply={reply}
              actions={
                <>
                  {replyActions?.(reply)}
                  {canModerate && (
                    <Button
                      size="xs"
                      variant="ghost"
                      colorPalette="red"
                      aria-label={`Remove the reply of ${reply.authorHandle}`}
                      disabled={decide.isPending}
                      onClick={() => decide.mutate({ id: reply.id, decision: "remove" })}
                    >
                      <TrashIcon />
                    </Button>
                  )}
                </>
              }
            />
          </li>
        ))}
      </Stack>
    </Stack>
  );
}
