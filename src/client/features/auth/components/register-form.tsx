import { Heading, Link, Stack, Text } from "@chakra-ui/react";
import { useCallback, useRef } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import type { SiweProof } from "#shared/schemas/siwe.ts";
import { registerSchema } from "#shared/schemas/users.ts";
import { BUSY, SubmitButton } from "../../../components/form/submit-button.tsx";
import { TextField } from "../../../components/form/text-field.tsx";
import { useZodForm } from "../../../components/form/use-zod-form.ts";
import { RouterLink } from "../../../components/router-link.tsx";
import { splitError } from "../../../lib/api-client.ts";
import { type LoginReturn, loginReturnOf } from "../../../lib/login-return.ts";
import { RegisterWalletButton } from "../../wallet/public.tsx";
import { useRegister } from "../api/register.ts";

export const ACCOUNT_CREATED = "Your account is created: log in to start.";

export function RegisterForm() {
  const navigate = useNavigate();
  const register = useRegister();
  const { from } = loginReturnOf(useLocation().state);
  const form = useZodForm(registerSchema, {
    serverError: register.error,
    defaultValues: { firstName: "", lastName: "", email: "", password: "", walletAddress: "" },
  });
  const { errors } = form.formState;
  const { appErr, serverErr } = splitError(register.error);
  // A signature from the connected wallet verifies it, as long as the field still holds that wallet's address.
  const signed = useRef<{ proof: SiweProof; address: string } | null>(null);
  const onSubmit = form.handleSubmit((input) => {
    const proof = signed.current?.address.toLowerCase() === input.walletAddress.toLowerCase() ? signed.current : null;
    register.mutate(
      { ...input, walletProof: proof?.proof },
      {
        // Spec: success goes to /login; it says so there, and keeps the way back of a visitor sent to log in.
        onSuccess: () =>
          navigate("/login", { state: { from: from ?? undefined, note: ACCOUNT_CREATED } satisfies LoginReturn }),
      },
    );
  });
  const fillAddress = useCallback(
    (address: string) => form.setValue("walletAddress", address, { shouldValidate: true, shouldTouch: true }),
    [form],
  );
  const keepProof = useCallback((proof: SiweProof, address: string) => {
    signed.current = { proof, address };
  }, []);

  return (
    <Stack asChild gap="5">
      <form onSubmit={onSubmit} noValidate>
        {/* The server's error shows in the heading area (docs/specification.md §Register). */}
        <Heading as="h1" size="2xl" color={appErr || serverErr ? "fg.error" : undefined} aria-live="assertive">
          {appErr || serverErr ? [appErr, serverErr].filter(Boolean).join(" ") : "Register Account"}
        </Heading>
        <Text color="fg.muted">
          Create an account to write, comment and follow authors. Everyone here keeps{" "}
          <Link asChild textDecoration="underline">
            <RouterLink to="/rules">the site's rules</RouterLink>
          </Link>
          .
        </Text>
        <TextField
          label="First Name"
          autoComplete="given-name"
          registration={form.register("firstName")}
          error={errors.firstName}
        />
        <TextField
          label="Last Name"
          autoComplete="family-name"
          registration={form.register("lastName")}
          error={errors.lastName}
        />
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
          autoComplete="new-password"
          registration={form.register("password")}
          error={errors.password}
        />
        <TextField
          label="Wallet Address"
          placeholder="0x…"
          autoComplete="off"
          registration={form.register("walletAddress")}
          error={errors.walletAddress}
        />
        <RegisterWalletButton onAddress={fillAddress} onProof={keepProof} />
        <SubmitButton pending={register.isPending} alignSelf="stretch" busyText={BUSY.register}>
          Register
        </SubmitButton>
      </form>
    </Stack>
  );
}
