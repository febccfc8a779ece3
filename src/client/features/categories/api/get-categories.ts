import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Category } from "../../../../shared/schemas/categories.ts";
import { api } from "../../../lib/api-client.ts";

export const getCategories = () => api<{ items: Category[]; nextCursor: string | null }>("/api/category?limit=100");

export const categoriesQueryOptions = () => queryOptions({ queryKey: ["categories"], queryFn: getCategories });

export const useCategories = () => useQuery(categoriesQueryOptions());
