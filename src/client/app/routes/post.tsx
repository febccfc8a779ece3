import { Box, HStack } from "@chakra-ui/react";
import { lazy, Suspense } from "react";
import { useParams } from "react-router-dom";
import { WaitingComments } from "../../features/blocks/public.tsx";
import { CommentList } from "../../features/comments/components/comment-list.tsx";
import { PostFediverse } from "../../features/federation/components/post-fediverse.tsx";
import { ReportButton } from "../../features/moderation/public.tsx";
import { PostDetail } from "../../features/posts/components/post-detail.tsx";
import { PostReactions } from "../../features/posts/components/post-reactions.tsx";
import { useReadBeacon } from "../../features/stats/public.ts";
import { SubscribeByEmail } from "../../features/subscribers/public.tsx";
import { FollowButton } from "../../features/users/public.tsx";
import { useSession } from "../../lib/session.ts";

// Only signed-in readers write comments: the form (and its form library) loads for them alone.
const CommentForm = lazy(() =>
  import("../../features/comments/components/comment-form.tsx").then((module) => ({ default: module.CommentForm })),
);

/** Counts the read for the author's stats (a published post only; the server checks again). */
function ReadBeacon({ postId, authorId }: { postId: string; authorId: string }) {
  useReadBeacon("post", postId, authorId);
  return null;
}

export function PostRoute() {
  const { id = "" } = useParams();
  const session = useSession();
  return (
    <PostDetail
      id={id}
      actions={(post) => (
        <ReportButton target={{ kind: "post", id: post.id, label: "this post" }} authorId={post.user.id} />
      )}
    >
      {/* A draft or scheduled post, which only its author sees, takes no comments. */}
      {(post) =>
        post.status === "published" && (
          <>
            {/* Where a reader who finished the post is: react, follow its author (a visitor is sent to log in). */}
            <HStack gap="3" wrap="wrap" color="fg.muted" fontSize="sm">
              <PostReactions post={post} visitor="login" />
              {session?.id !== post.user.id && (
                <Box ms="auto">
                  <FollowButton user={{ id: post.user.id, name: `${post.user.firstName} ${post.user.lastName}` }} />
                </Box>
              )}
            </HStack>
            <Box
              as="section"
              aria-label="Comments"
              borderTopWidth="1px"
              pt="6"
              display="flex"
              flexDirection="column"
              gap="6"
            >
              <ReadBeacon postId={post.id} authorId={post.user.id} />
              {session && (
                <Suspense fallback={null}>
                  <CommentForm postId={post.id} />
                </Suspense>
              )}
              {session?.id === post.user.id && <WaitingComments postId={post.id} />}
              <CommentList
                postId={post.id}
                comments={post.comments}
                nextCursor={post.commentsNextCursor}
                count={post.commentsCount}
                viewerId={session?.id ?? null}
                actions={(comment) => (
                  <ReportButton
                    target={{ kind: "comment", id: comment.id, label: "this comment" }}
                    authorId={comment.user.id}
                  />
                )}
              />
              <PostFediverse
                postId={post.id}
                canModerate={Boolean(session && (session.id === post.user.id || session.isAdmin))}
                replyActions={(reply) => (
                  <ReportButton
                    target={{ kind: "remote-reply", id: reply.id, label: `the reply of ${reply.authorHandle}` }}
                    authorId={null}
                  />
                )}
              />
            </Box>
            {/* Last on the page: hidden for the post's author once the page knows who reads it, it moves nothing. */}
            {session?.id !== post.user.id && (
              <SubscribeByEmail authorId={post.user.id} authorName={`${post.user.firstName} ${post.user.lastName}`} />
            )}
          </>
        )
      }
    </PostDetail>
  );
}
