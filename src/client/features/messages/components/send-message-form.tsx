import { Heading, Stack, Text } from "@chakra-ui/react";
import { useNavigate } from "react-router-dom";
import { sendMailSchema } from "#shared/schemas/users.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { SubmitButton } from "../../../components/form/submit-button.tsx";
import { TextField } from "../../../components/form/text-field.tsx";
import { useZodForm } from "../../../components/form/use-zod-form.ts";
import { useSendMessage } from "../api/send-message.ts";

interface Recipient {
  email: string;
  id: string;
  name: string;
}

/**
 * The recipient comes from the page that opened this one (navigation state) and cannot be edited here. Admins
 * know the address; anyone else writes to the user's id and sees their name.
 */
export function SendMessageForm({ recipient }: { recipient: Recipient }) {
  const navigate = useNavigate();
  const send = useSendMessage();
  const byAddress = Boolean(recipient.email) || !recipient.id;
  const form = useZodForm(sendMailSchema, {
    serverError: send.error,
    defaultValues: byAddress
      ? { to: recipient.email, subject: "", message: "" }
      : { toId: recipient.id, subject: "", message: "" },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((input) =>
    send.mutate(input, { onSuccess: () => navigate(`/profile/${recipient.id}`) }),
  );
  return (
    <Stack asChild gap="4">
      <form onSubmit={onSubmit} noValidate>
        <Heading as="h1" size="2xl">
          Send Message
        </Heading>
        {byAddress ? (
          <TextField label="Recipient Email" readOnly registration={form.register("to")} error={errors.to} />
        ) : (
          <Text>
            To: <strong>{recipient.name}</strong>
          </Text>
        )}
        <TextField label="Subject" registration={form.register("subject")} error={errors.subject} />
        <TextField label="Message" multiline registration={form.register("message")} error={errors.message} />
        <ErrorLines error={send.error} />
        <SubmitButton pending={send.isPending}>Send</SubmitButton>
      </form>
    </Stack>
  );
}
