import { queryOptions, useQuery } from "@tanstack/react-query";
import { publicUserSchema } from "../../../../shared/schemas/users.ts";
import { api } from "../../../lib/api-client.ts";
import { userKeys } from "./keys.ts";

/** A user's public details (names, photo, wallet and whether it is verified). */
export const userQueryOptions = (id: string) =>
  queryOptions({ queryKey: userKeys.user(id), queryFn: () => api(`/api/users/${id}`, publicUserSchema) });

export const useUser = (id: string) => useQuery(userQueryOptions(id));
