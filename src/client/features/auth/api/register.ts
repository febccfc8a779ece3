import { useMutation } from "@tanstack/react-query";
import type { PrivateUser, RegisterInput } from "../../../../shared/schemas/users.ts";
import { api } from "../../../lib/api-client.ts";

export const register = (input: RegisterInput) =>
  api<PrivateUser>("/api/users/register", { method: "POST", body: input });

export const useRegister = () => useMutation({ mutationFn: register });
