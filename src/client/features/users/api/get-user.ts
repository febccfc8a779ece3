import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PublicUser } from "../../../../shared/schemas/users.ts";
import { api } from "../../../lib/api-client.ts";

/** A user's public details (names, photo, wallet and whether it is verified). */
export const userQueryOptions = (id: string) =>
  queryOptions({ queryKey: ["user", id], queryFn: () => api<PublicUser>(`/api/users/${id}`) });

export const useUser = (id: string) => useQuery(userQueryOptions(id));
