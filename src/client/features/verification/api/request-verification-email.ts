import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";

export const requestVerificationEmail = () =>
  api<{ message: string }>("/api/users/generate-verify-email-token", { method: "POST" });

export const useRequestVerificationEmail = () => useMutation({ mutationFn: requestVerificationEmail });
