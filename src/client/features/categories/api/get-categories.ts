import { queryOptions, useQuery } from "@tanstack/react-query";
import { categorySchema } from "#shared/schemas/categories.ts";
import { pageOf } from "#shared/schemas/pagination.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

export const getCategories = () => api("/api/category?limit=100", pageOf(categorySchema));

export const categoriesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.categories.all(), queryFn: getCategories });

export const useCategories = () => useQuery(categoriesQueryOptions());
