import { queryOptions, useQuery } from "@tanstack/react-query";
import { followResultSchema } from "#shared/schemas/users.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

/** Whether the signed-in reader follows `id`, and their follower count, without counting a view of their profile. */
export const getFollowState = (id: string) => api(`/api/users/follow/${id}`, followResultSchema);
export const followStateQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.users.follow(id), queryFn: () => getFollowState(id) });
export const useFollowState = (id: string, enabled: boolean) => useQuery({ ...followStateQueryOptions(id), enabled });
