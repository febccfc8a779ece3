import { Alert, Heading, Stack } from "@chakra-ui/react";
import { useEffect } from "react";
import { useNavigate } from "react-router-dom";
import { RESET_REDIRECT_DELAY_MS } from "#shared/constants.ts";
import { forgetPasswordSchema, newPasswordSchema } from "#shared/schemas/users.ts";
import { CheckboxField, UNLINK_WALLET } from "../../../components/form/checkbox-field.tsx";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { SubmitButton } from "../../../components/form/submit-button.tsx";
import { TextField } from "../../../components/form/text-field.tsx";
import { useZodForm } from "../../../components/form/use-zod-form.ts";
import { useRequestReset, useResetPassword } from "../api/reset-password.ts";

const Success = ({ children }: { children: string }) => (
  <Alert.Root status="success">
    <Alert.Indicator />
    <Alert.Title>{children}</Alert.Title>
  </Alert.Root>
);

export function PasswordResetRequestForm() {
  const request = useRequestReset();
  const form = useZodForm(forgetPasswordSchema, {
    serverError: request.error,
    defaultValues: { email: "" },
  });
  const onSubmit = form.handleSubmit(({ email }) => request.mutate(email));
  return (
    <Stack asChild gap="5">
      <form onSubmit={onSubmit} noValidate>
        <Heading as="h1" size="2xl">
          Password Reset Form
        </Heading>
        {request.isSuccess && <Success>{request.data.message}</Success>}
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          registration={form.register("email")}
          error={form.formState.errors.email}
        />
        <ErrorLines error={request.error} />
        <SubmitButton pending={request.isPending}>Reset Password</SubmitButton>
      </form>
    </Stack>
  );
}

export function ResetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const reset = useResetPassword();
  const form = useZodForm(newPasswordSchema, {
    serverError: reset.error,
    defaultValues: { password: "", unlinkWallet: false },
  });
  const onSubmit = form.handleSubmit((input) => reset.mutate({ token, ...input }));
  useEffect(() => {
    if (!reset.isSuccess) return;
    const timer = setTimeout(() => navigate("/login"), RESET_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [reset.isSuccess, navigate]);
  return (
    <Stack asChild gap="5">
      <form onSubmit={onSubmit} noValidate>
        <Heading as="h1" size="2xl">
          Enter your new password
        </Heading>
        {reset.isSuccess && (
          <Success>Password Reset Successfully. You will be redirected to login with 5 seconds</Success>
        )}
        <TextField
          label="New Password"
          type="password"
          autoComplete="new-password"
          registration={form.register("password")}
          error={form.formState.errors.password}
        />
        <CheckboxField {...UNLINK_WALLET} registration={form.register("unlinkWallet")} />
        <ErrorLines error={reset.error} />
        <SubmitButton pending={reset.isPending} disabled={reset.isPending || reset.isSuccess}>
          Reset Password
        </SubmitButton>
      </form>
    </Stack>
  );
}
