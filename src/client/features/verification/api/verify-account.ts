import { useMutation } from "@tanstack/react-query";
import type { PrivateUser } from "../../../../shared/schemas/users.ts";
import { api } from "../../../lib/api-client.ts";

export const verifyAccount = (token: string) =>
  api<PrivateUser>("/api/users/verify-account", { method: "PUT", body: { token } });
export const useVerifyAccount = () => useMutation({ mutationFn: verifyAccount });
