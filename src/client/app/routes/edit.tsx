import { Container } from "@chakra-ui/react";
import { Navigate, useParams } from "react-router-dom";
import { QueryState } from "../../components/query-state.tsx";
import { useComment } from "../../features/comments/api/comments.ts";
import { EditCommentForm } from "../../features/comments/components/edit-comment-form.tsx";
import { usePost } from "../../features/posts/api/get-post.ts";
import { EditPostForm } from "../../features/posts/components/edit-post-form.tsx";
import { useSession } from "../../lib/session.ts";

/** The server refuses anyone but the author; the screen sends others back to the post rather than offering a form. */
export function EditPostRoute() {
  const { id = "" } = useParams();
  const session = useSession();
  const post = usePost(id);
  if (post.data && post.data.user.id !== session?.id) return <Navigate to={`/posts/${id}`} replace />;
  return (
    <Container maxW="3xl" py="8">
      <QueryState query={post} label="Loading post">
        {(data) => <EditPostForm post={data} />}
      </QueryState>
    </Container>
  );
}

export function EditCommentRoute() {
  const { id = "" } = useParams();
  const session = useSession();
  const comment = useComment(id);
  if (comment.data && comment.data.user.id !== session?.id)
    return <Navigate to={`/posts/${comment.data.postId}`} replace />;
  return (
    <Container maxW="2xl" py="8">
      <QueryState query={comment} label="Loading comment">
        {(data) => <EditCommentForm comment={data} />}
      </QueryState>
    </Container>
  );
}
