import { useMutation } from "@tanstack/react-query";
import { sessionSchema } from "#shared/schemas/session.ts";
import type { LoginInput } from "#shared/schemas/users.ts";
import { api } from "../../../lib/api-client.ts";
import { useSetSession } from "../../../lib/session.ts";

export const login = (input: LoginInput) => api("/api/users/login", sessionSchema, { method: "POST", body: input });

/** On success the response becomes the session (stored as `userInfo`). */
export function useLogin() {
  const setSession = useSetSession();
  return useMutation({ mutationFn: login, onSuccess: (session) => setSession(session) });
}
