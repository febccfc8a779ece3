import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";

export const requestReset = (email: string) =>
  api<{ message: string }>("/api/users/forget-password-token", { method: "POST", body: { email } });
export const useRequestReset = () => useMutation({ mutationFn: requestReset });

export const resetPassword = (input: { token: string; password: string }) =>
  api<{ message: string }>("/api/users/reset-password", { method: "PUT", body: input });
export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
