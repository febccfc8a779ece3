import { useMutation } from "@tanstack/react-query";
import { messageSchema } from "#shared/schemas/users.ts";
import { api } from "../../../lib/api-client.ts";

export const requestReset = (email: string) =>
  api("/api/users/forget-password-token", messageSchema, { method: "POST", body: { email } });
export const useRequestReset = () => useMutation({ mutationFn: requestReset });

export const resetPassword = (input: { token: string; password: string; unlinkWallet?: boolean | undefined }) =>
  api("/api/users/reset-password", messageSchema, { method: "PUT", body: input });
export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
