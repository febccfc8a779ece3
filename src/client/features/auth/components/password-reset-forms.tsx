import { Alert, Button, Heading, Stack } from "@chakra-ui/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router-dom";
import { RESET_REDIRECT_DELAY_MS } from "../../../../shared/constants.ts";
import { forgetPasswordSchema, newPasswordSchema } from "../../../../shared/schemas/users.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { TextField } from "../../../components/form/text-field.tsx";
import { useRequestReset, useResetPassword } from "../api/reset-password.ts";

const Success = ({ children }: { children: string }) => (
  <Alert.Root status="success">
    <Alert.Indicator />
    <Alert.Title>{children}</Alert.Title>
  </Alert.Root>
);

export function PasswordResetRequestForm() {
  const request = useRequestReset();
  const form = useForm<{ email: string }>({
    resolver: zodResolver(forgetPasswordSchema),
    mode: "onTouched",
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
        <Button type="submit" colorPalette="teal" alignSelf="flex-start" disabled={request.isPending}>
          {request.isPending ? "Loading please wait..." : "Reset Password"}
        </Button>
      </form>
    </Stack>
  );
}

export function ResetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const reset = useResetPassword();
  const form = useForm<{ password: string }>({
    resolver: zodResolver(newPasswordSchema),
    mode: "onTouched",
    defaultValues: { password: "" },
  });
  const onSubmit = form.handleSubmit(({ password }) => reset.mutate({ token, password }));
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
        <ErrorLines error={reset.error} />
        <Button type="submit" colorPalette="teal" alignSelf="flex-start" disabled={reset.isPending || reset.isSuccess}>
          {reset.isPending ? "Loading please wait..." : "Reset Password"}
        </Button>
      </form>
    </Stack>
  );
}
