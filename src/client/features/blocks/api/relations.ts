import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { relationResultSchema, relationsSchema } from "#shared/schemas/blocks.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

export const useRelations = (enabled = true) =>
  useQuery({
    queryKey: queryKeys.blocks.relations(),
    queryFn: () => api("/api/me/relations", relationsSchema),
    enabled,
  });

/** Whether the signed-in reader blocks `userId` (undefined until known). */
export function useBlocking(userId: string) {
  const relations = useRelations();
  return relations.data?.blocked.some((user) => user.id === userId);
}

export type Relation = "block" | "mute";

/** Blocks, unblocks, mutes or unmutes someone; a block also ends follows, so profiles and posts reload. */
export function useSetRelation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, relation, on }: { userId: string; relation: Relation; on: boolean }) =>
      api(`/api/users/${relation}/${userId}`, relationResultSchema, { method: on ? "POST" : "DELETE" }),
    onSuccess: (_result, { relation }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.blocks.relations() });
      if (relation === "block") {
        void queryClient.invalidateQueries({ queryKey: queryKeys.users.profiles() });
        void queryClient.invalidateQueries({ queryKey: queryKeys.posts.all() });
      }
      void queryClient.invalidateQueries({ queryKey: queryKeys.notifications.all() });
    },
  });
}

export function useReplaceMutedWords() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (words: string[]) => api("/api/me/muted-words", relationsSchema, { method: "PUT", body: { words } }),
    onSuccess: (relations) => {
      queryClient.setQueryData(queryKeys.blocks.relations(), relations);
      void queryClient.invalidateQueries({ queryKey: queryKeys.notifications.all() });
    },
  });
}
