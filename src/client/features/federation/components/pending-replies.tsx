import { Button, Heading, Link, Stack, Text } from "@chakra-ui/react";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { RouterLink } from "../../../components/router-link.tsx";
import { usePendingReplies, useReplyDecision } from "../api/replies.ts";
import { RemoteReplyCard } from "./remote-reply.tsx";

const DECISIONS = [
  { decision: "approve", label: "Approve", variant: "solid", palette: "teal" },
  { decision: "remove", label: "Remove", variant: "outline", palette: "red" },
] as const;

/**
 * Replies from accounts replying to the author for the first time: shown on the post once approved (and that
 * account's next replies at once). Shows nothing when none waits.
 */
export function PendingReplies() {
  const pending = usePendingReplies();
  const decide = useReplyDecision();
  const replies = pending.data ?? [];
  if (replies.length === 0) return null;
  return (
    <Stack as="section" aria-label="Replies waiting for you" gap="3">
      <Heading as="h2" size="lg">
        Replies waiting for you
      </Heading>
      <Text fontSize="sm" color="fg.muted">
        First replies from the fediverse show on your post once you approve them.
      </Text>
      <ErrorLines error={decide.error} />
      <Stack as="ul" listStyleType="none" gap="3">
        {replies.map((reply) => (
          <Stack as="li" key={reply.id} gap="1">
            <Text fontSize="sm">
              On{" "}
              <Link asChild fontWeight="medium">
                <RouterLink to={`/posts/${reply.postId}`}>{reply.postTitle}</RouterLink>
              </Link>
            </Text>
            <RemoteReplyCard
              reply={reply}
              actions={DECISIONS.map(({ decision, label, variant, palette }) => (
                <Button
                  key={decision}
                  size="xs"
                  variant={variant}
                  colorPalette={palette}
                  disabled={decide.isPending}
                  onClick={() => decide.mutate({ id: reply.id, decision })}
                >
                  {label}
                </Button>
              ))}
            />
          </Stack>
        ))}
      </Stack>
    </Stack>
  );
}
