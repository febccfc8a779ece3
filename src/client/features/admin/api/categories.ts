import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Category } from "../../../../shared/schemas/categories.ts";
import { api } from "../../../lib/api-client.ts";

export const useCategory = (id: string) =>
  useQuery({ queryKey: ["categories", id], queryFn: () => api<Category>(`/api/category/${id}`) });

/** Create, rename or delete; every category list reloads afterwards. */
export function useCategoryMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, title, remove }: { id?: string; title?: string; remove?: boolean }) =>
      api<Category>(id ? `/api/category/${id}` : "/api/category", {
        method: remove ? "DELETE" : id ? "PUT" : "POST",
        ...(remove ? {} : { body: { title } }),
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["categories"] }),
  });
}
