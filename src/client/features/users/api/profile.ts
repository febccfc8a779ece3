import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  followResultSchema,
  type PrivateUser,
  privateUserSchema,
  profileSchema,
  type UpdateProfileInput,
} from "#shared/schemas/users.ts";
import { api } from "../../../lib/api-client.ts";
import { toFormData } from "../../../lib/form-data.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import { useSession, useSetSession } from "../../../lib/session.ts";

export const getProfile = (id: string) => api(`/api/users/profile/${id}`, profileSchema);
export const profileQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.users.profile(id), queryFn: () => getProfile(id) });
export const useProfile = (id: string) => useQuery(profileQueryOptions(id));

/** Follow or unfollow; the profile reloads afterwards (docs/specification.md §States and transitions). */
export function useFollow(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (follow: boolean) =>
      api(follow ? "/api/users/follow" : "/api/users/unfollow", followResultSchema, {
        method: "PUT",
        body: follow ? { followId: id } : { unFollowId: id },
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.users.profiles() }),
  });
}

/** Keeps the session's copy of the user (name, photo, verification) in step with what the server returned. */
function useRefreshSession() {
  const session = useSession();
  const setSession = useSetSession();
  return (user: PrivateUser) =>
    session &&
    setSession({
      ...session,
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      profilePhoto: user.profilePhoto,
      isVerified: user.isAccountVerified,
    });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  const refresh = useRefreshSession();
  return useMutation({
    mutationFn: (input: UpdateProfileInput) => api("/api/users", privateUserSchema, { method: "PUT", body: input }),
    onSuccess: (user) => {
      refresh(user);
      void queryClient.invalidateQueries({ queryKey: queryKeys.users.profile(user.id) });
    },
  });
}

export function useUploadPhoto() {
  const queryClient = useQueryClient();
  const refresh = useRefreshSession();
  return useMutation({
    mutationFn: (file: File) =>
      api("/api/users/profilephoto-upload", privateUserSchema, {
        method: "PUT",
        body: toFormData({}, { image: file }),
      }),
    onSuccess: (user) => {
      refresh(user);
      void queryClient.invalidateQueries({ queryKey: queryKeys.users.profile(user.id) });
    },
  });
}

/** A user's profile is shown again from the server (after their wallet changed). */
export function useReloadProfile() {
  const queryClient = useQueryClient();
  return (id: string) => void queryClient.invalidateQueries({ queryKey: queryKeys.users.profile(id) });
}
