import { queryOptions, useQuery } from "@tanstack/react-query";
import { categorySchema } from "../../../../shared/schemas/categories.ts";
import { pageOf } from "../../../../shared/schemas/pagination.ts";
import { api } from "../../../lib/api-client.ts";

export const categoryKeys = {
  all: () => ["categories"] as const,
  one: (id: string) => ["categories", id] as const,
};

export const getCategories = () => api("/api/category?limit=100", pageOf(categorySchema));

export const categoriesQueryOptions = () => queryOptions({ queryKey: categoryKeys.all(), queryFn: getCategories });

export const useCategories = () => useQuery(categoriesQueryOptions());
