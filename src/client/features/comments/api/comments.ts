import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Comment } from "../../../../shared/schemas/comments.ts";
import { api } from "../../../lib/api-client.ts";

export const createComment = (input: { postId: string; description: string }) =>
  api<Comment>("/api/comments", { method: "POST", body: input });

export const deleteComment = (id: string) => api<Comment>(`/api/comments/${id}`, { method: "DELETE" });

/** The post detail reloads after a comment is created or deleted. */
function useCommentMutation<T>(mutationFn: (input: T) => Promise<Comment>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (comment) => void queryClient.invalidateQueries({ queryKey: ["post", comment.postId] }),
  });
}

export const useCreateComment = () => useCommentMutation(createComment);
export const useDeleteComment = () => useCommentMutation(deleteComment);

export const getComments = (postId: string, cursor: string) =>
  api<{ items: Comment[]; nextCursor: string | null }>(
    `/api/posts/${postId}/comments?cursor=${encodeURIComponent(cursor)}`,
  );

/** Older comments after the first page the post detail carries; fetched only when the reader asks. */
export function useOlderComments(postId: string, firstCursor: string | null, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: ["post", postId, "comments", firstCursor],
    queryFn: ({ pageParam }) => getComments(postId, pageParam as string),
    initialPageParam: firstCursor,
    getNextPageParam: (page) => page.nextCursor,
    enabled: enabled && firstCursor !== null,
  });
}

export const getComment = (id: string) => api<Comment>(`/api/comments/${id}`);
export const useComment = (id: string) => useQuery({ queryKey: ["comment", id], queryFn: () => getComment(id) });

export const updateComment = ({ id, description }: { id: string; description: string }) =>
  api<Comment>(`/api/comments/${id}`, { method: "PUT", body: { description } });
export const useUpdateComment = () => useCommentMutation(updateComment);
