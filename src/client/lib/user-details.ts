import { queryOptions } from "@tanstack/react-query";
import { publicUserSchema } from "#shared/schemas/users.ts";
import { api } from "./api-client.ts";
import { queryKeys } from "./query-keys.ts";

/** A user's public details (names, photo, wallet and whether it is verified): profiles and wallet steps read it. */
export const userQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.users.summary(id), queryFn: () => api(`/api/users/${id}`, publicUserSchema) });
