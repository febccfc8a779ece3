import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type Comment, commentSchema } from "#shared/schemas/comments.ts";
import { pageOf } from "#shared/schemas/pagination.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

const commentPageSchema = pageOf(commentSchema);

export const createComment = (input: { postId: string; description: string }) =>
  api("/api/comments", commentSchema, { method: "POST", body: input });

export const deleteComment = (id: string) => api(`/api/comments/${id}`, commentSchema, { method: "DELETE" });

export const updateComment = ({ id, description }: { id: string; description: string }) =>
  api(`/api/comments/${id}`, commentSchema, { method: "PUT", body: { description } });

/** The post detail reloads after a comment is created, edited or deleted, and the comment's own copy follows. */
function useCommentMutation<T>(mutationFn: (input: T) => Promise<Comment>, after: "keep" | "remove") {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (comment) => {
      if (after === "remove") queryClient.removeQueries({ queryKey: queryKeys.comments.one(comment.id) });
      else queryClient.setQueryData(queryKeys.comments.one(comment.id), comment);
      void queryClient.invalidateQueries({ queryKey: queryKeys.posts.detail(comment.postId) });
    },
  });
}

export const useCreateComment = () => useCommentMutation(createComment, "keep");
export const useUpdateComment = () => useCommentMutation(updateComment, "keep");
export const useDeleteComment = () => useCommentMutation(deleteComment, "remove");

export const getComments = (postId: string, cursor: string) =>
  api(`/api/posts/${postId}/comments?cursor=${encodeURIComponent(cursor)}`, commentPageSchema);

/** Older comments after the first page the post detail carries; fetched only when the reader asks. */
export function useOlderComments(postId: string, firstCursor: string | null, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: queryKeys.comments.older(postId, firstCursor),
    queryFn: ({ pageParam }) => getComments(postId, pageParam as string),
    initialPageParam: firstCursor,
    getNextPageParam: (page) => page.nextCursor,
    enabled: enabled && firstCursor !== null,
  });
}

export const getComment = (id: string) => api(`/api/comments/${id}`, commentSchema);
export const useComment = (id: string) =>
  useQuery({ queryKey: queryKeys.comments.one(id), queryFn: () => getComment(id) });
