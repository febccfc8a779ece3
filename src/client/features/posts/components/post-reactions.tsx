import { Box, HStack } from "@chakra-ui/react";
import { useLocation, useNavigate } from "react-router-dom";
import type { Post } from "#shared/schemas/posts.ts";
import { ActionButton } from "../../../components/action-button.tsx";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { ThumbDownIcon, ThumbUpIcon } from "../../../components/icons.tsx";
import { loginThenBack } from "../../../lib/login-return.ts";
import { useSession } from "../../../lib/session.ts";
import { useReactToPost } from "../api/react-to-post.ts";

type Reacted = Pick<Post, "id" | "likesCount" | "disLikesCount" | "viewerReaction">;

const KINDS = [
  { kind: "likes", reaction: "like", Icon: ThumbUpIcon, name: " likes, like this post" },
  { kind: "dislikes", reaction: "dislike", Icon: ThumbDownIcon, name: " dislikes, dislike this post" },
] as const;

/**
 * Like and dislike with their counts. A visitor sees the counts alone (`visitor="counts"`: a card of the list, as the
 * spec shows it), or the buttons, which send them to log in and back (`visitor="login"`: the post's own page).
 */
export function PostReactions({ post, visitor }: { post: Reacted; visitor: "counts" | "login" }) {
  const session = useSession();
  const react = useReactToPost();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  if (!session && visitor === "counts") {
    return KINDS.map(({ kind, Icon }) => {
      const count = kind === "likes" ? post.likesCount : post.disLikesCount;
      return (
        <HStack key={kind} as="span" gap="1" aria-label={`${count} ${kind}`}>
          <Icon /> {count}
        </HStack>
      );
    });
  }
  return (
    <>
      {KINDS.map(({ kind, reaction, Icon, name }) => (
        <ActionButton
          key={kind}
          size="xs"
          variant={post.viewerReaction === reaction ? "subtle" : "ghost"}
          aria-pressed={session ? post.viewerReaction === reaction : undefined}
          busy={react.isPending}
          onClick={() =>
            session
              ? react.mutate({ postId: post.id, kind })
              : navigate(...loginThenBack(pathname, `Log in to ${reaction} this post.`))
          }
        >
          <Icon /> {kind === "likes" ? post.likesCount : post.disLikesCount}
          <Box as="span" srOnly>
            {name}
          </Box>
        </ActionButton>
      ))}
      {react.error ? (
        <Box flexBasis="100%">
          <ErrorLines error={react.error} />
        </Box>
      ) : null}
    </>
  );
}
