import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { categorySchema } from "#shared/schemas/categories.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

export const useCategory = (id: string) =>
  useQuery({ queryKey: queryKeys.categories.one(id), queryFn: () => api(`/api/category/${id}`, categorySchema) });

/** Create, rename or delete; every category list reloads afterwards. */
export function useCategoryMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, title, remove }: { id?: string; title?: string; remove?: boolean }) =>
      api(id ? `/api/category/${id}` : "/api/category", categorySchema, {
        method: remove ? "DELETE" : id ? "PUT" : "POST",
        ...(remove ? {} : { body: { title } }),
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.categories.all() }),
  });
}
