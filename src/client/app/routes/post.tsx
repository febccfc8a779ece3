import { Box } from "@chakra-ui/react";
import { useParams } from "react-router-dom";
import { CommentForm } from "../../features/comments/components/comment-form.tsx";
import { CommentList } from "../../features/comments/components/comment-list.tsx";
import { PostDetail } from "../../features/posts/components/post-detail.tsx";
import { useSession } from "../../lib/session.ts";

export function PostRoute() {
  const { id = "" } = useParams();
  const session = useSession();
  return (
    <PostDetail id={id}>
      {(post) => (
        <Box
          as="section"
          aria-label="Comments"
          borderTopWidth="1px"
          pt="6"
          display="flex"
          flexDirection="column"
          gap="6"
        >
          {session && <CommentForm postId={post.id} />}
          <CommentList
            postId={post.id}
            comments={post.comments}
            nextCursor={post.commentsNextCursor}
            count={post.commentsCount}
            viewerId={session?.id ?? null}
          />
        </Box>
      )}
    </PostDetail>
  );
}
