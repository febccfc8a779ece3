import { useMutation } from "@tanstack/react-query";
import { privateUserSchema } from "#shared/schemas/users.ts";
import { api } from "../../../lib/api-client.ts";

export const verifyAccount = (token: string) =>
  api("/api/users/verify-account", privateUserSchema, { method: "PUT", body: { token } });
export const useVerifyAccount = () => useMutation({ mutationFn: verifyAccount });
