import { useMutation } from "@tanstack/react-query";
import { privateUserSchema, type RegisterInput } from "#shared/schemas/users.ts";
import { api } from "../../../lib/api-client.ts";

export const register = (input: RegisterInput) =>
  api("/api/users/register", privateUserSchema, { method: "POST", body: input });

export const useRegister = () => useMutation({ mutationFn: register });
