import { Button, Heading, Spinner, Stack, Text } from "@chakra-ui/react";
import { useEffect, useRef } from "react";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { RouterLink } from "../../../components/router-link.tsx";
import { useLogout } from "../../../lib/use-logout.ts";
import { useVerifyAccount } from "../api/verify-account.ts";

/** Confirms the e-mailed token as soon as the page opens (once: a token works once). */
export function VerifyAccount({ token }: { token: string }) {
  const verify = useVerifyAccount();
  const logout = useLogout();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    verify.mutate(token);
  }, [token, verify]);

  if (verify.isSuccess) {
    return (
      <Stack gap="4" align="center" textAlign="center">
        <Heading as="h1" size="2xl" color="green.fg">
          Account Verified
        </Heading>
        <Text>Your account is now verified. Logout and login back to see the changes</Text>
        <Button colorPalette="teal" onClick={logout}>
          Logout
        </Button>
      </Stack>
    );
  }
  return (
    <Stack gap="4" align="center" textAlign="center">
      {verify.isError ? <ErrorLines error={verify.error} /> : <Spinner aria-label="Verifying your account" />}
      <Button asChild variant="outline">
        <RouterLink to="/">Go Home</RouterLink>
      </Button>
    </Stack>
  );
}
