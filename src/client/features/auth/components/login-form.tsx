import { Heading, HStack, Link, Separator, Stack, Text } from "@chakra-ui/react";
import { Navigate, useLocation, useNavigate } from "react-router-dom";
import { loginSchema } from "#shared/schemas/users.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { BUSY, SubmitButton } from "../../../components/form/submit-button.tsx";
import { TextField } from "../../../components/form/text-field.tsx";
import { useZodForm } from "../../../components/form/use-zod-form.ts";
import { RouterLink } from "../../../components/router-link.tsx";
import { loginReturnOf } from "../../../lib/login-return.ts";
import { useSession } from "../../../lib/session.ts";
import { WalletLoginButton } from "../../wallet/public.tsx";
import { useLogin } from "../api/login.ts";

export function LoginForm() {
  const session = useSession();
  const navigate = useNavigate();
  const login = useLogin();
  // Sent here on the way somewhere (spec: logged-in screens send visitors to /login): back there after; else the profile.
  const { from } = loginReturnOf(useLocation().state);
  const after = (id: string) => from ?? `/profile/${id}`;
  const form = useZodForm(loginSchema, {
    serverError: login.error,
    defaultValues: { email: "", password: "" },
  });
  const { errors } = form.formState;

  if (session && !login.isSuccess) return <Navigate to={after(session.id)} replace />;

  const onSubmit = form.handleSubmit((input) =>
    login.mutate(input, { onSuccess: (result) => navigate(after(result.id), { replace: true }) }),
  );

  return (
    <Stack asChild gap="5">
      <form onSubmit={onSubmit} noValidate>
        <Heading as="h1" size="2xl">
          Login to your account
        </Heading>
        <ErrorLines error={login.error} />
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          registration={form.register("email")}
          error={errors.email}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          registration={form.register("password")}
          error={errors.password}
        />
        <SubmitButton pending={login.isPending} alignSelf="stretch" busyText={BUSY.login}>
          Login
        </SubmitButton>
        <Link asChild color="teal.fg" alignSelf="flex-start">
          <RouterLink to="/password-reset-token">Forget Password ?</RouterLink>
        </Link>
        <Text fontSize="sm" color="fg.muted">
          No account yet?{" "}
          {/* Underlined: inside a sentence a link must not be told by its colour alone (axe, dark mode). */}
          <Link asChild color="teal.fg" textDecoration="underline">
            {/* The way back goes along, through Register's success, to after the login. */}
            <RouterLink to="/register" state={from ? { from } : undefined}>
              Register
            </RouterLink>
          </Link>
        </Text>
        <HStack gap="3" color="fg.muted" fontSize="sm">
          <Separator flex="1" />
          <Text>or</Text>
          <Separator flex="1" />
        </HStack>
        <WalletLoginButton />
      </form>
    </Stack>
  );
}
