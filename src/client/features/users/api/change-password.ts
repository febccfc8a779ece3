import { useMutation } from "@tanstack/react-query";
import { sessionSchema } from "#shared/schemas/session.ts";
import type { ChangePasswordInput } from "#shared/schemas/users.ts";
import { api } from "../../../lib/api-client.ts";
import { useSetSession } from "../../../lib/session.ts";

/** The server ends earlier sessions and answers with a fresh one, which replaces ours. */
export function useChangePassword() {
  const setSession = useSetSession();
  return useMutation({
    mutationFn: (input: ChangePasswordInput) =>
      api("/api/users/password", sessionSchema, { method: "PUT", body: input }),
    onSuccess: (session) => setSession(session),
  });
}
