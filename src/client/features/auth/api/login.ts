import { useMutation } from "@tanstack/react-query";
import type { Session } from "../../../../shared/schemas/session.ts";
import type { LoginInput } from "../../../../shared/schemas/users.ts";
import { api } from "../../../lib/api-client.ts";
import { useSetSession } from "../session.ts";

export const login = (input: LoginInput) => api<Session>("/api/users/login", { method: "POST", body: input });

/** On success the response becomes the session (stored as `userInfo`). */
export function useLogin() {
  const setSession = useSetSession();
  return useMutation({ mutationFn: login, onSuccess: (session) => setSession(session) });
}
