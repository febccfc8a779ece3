import { useMutation } from "@tanstack/react-query";
import { messageSchema } from "#shared/schemas/users.ts";
import { api } from "../../../lib/api-client.ts";

export const requestVerificationEmail = () =>
  api("/api/users/generate-verify-email-token", messageSchema, { method: "POST" });

export const useRequestVerificationEmail = () => useMutation({ mutationFn: requestVerificationEmail });
