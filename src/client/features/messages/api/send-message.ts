import { useMutation } from "@tanstack/react-query";
import { messageSchema, type SendMailInput } from "#shared/schemas/users.ts";
import { api } from "../../../lib/api-client.ts";

export const sendMessage = (input: SendMailInput) => api("/api/email", messageSchema, { method: "POST", body: input });

export const useSendMessage = () => useMutation({ mutationFn: sendMessage });
