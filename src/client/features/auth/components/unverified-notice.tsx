import { Alert, Button, Container, Stack, Text } from "@chakra-ui/react";
import { splitError } from "../../../lib/api-client.ts";
import { useSession } from "../../../lib/session.ts";
import { useRequestVerificationEmail } from "../api/request-verification-email.ts";

/** The lines under the bar: the unverified banner, and the verification request's loading, success and error. */
export function UnverifiedNotice() {
  const session = useSession();
  const request = useRequestVerificationEmail();
  const { appErr, serverErr } = splitError(request.error);
  // Nothing to say takes no room: an empty line under the bar would push the page down once the session is known.
  if (!session || (session.isVerified && request.isIdle && !appErr && !serverErr)) return null;

  return (
    // A landmark of its own, so what it says is not outside every region of the page.
    <Container as="section" aria-label="Your account" maxW="6xl" pt="3">
      <Stack gap="2">
        {!session.isVerified && (
          <Alert.Root status="warning" size="sm">
            <Alert.Indicator />
            <Alert.Title flex="1">Your account is not verified.</Alert.Title>
            <Button size="xs" variant="outline" onClick={() => request.mutate()} disabled={request.isPending}>
              Verify your account
            </Button>
          </Alert.Root>
        )}
        {request.isPending && <Text role="status">Loading please wait...</Text>}
        {request.isSuccess && (
          <Alert.Root status="success" size="sm">
            <Alert.Indicator />
            <Alert.Title>Email is sent, check your inbox to verify your account.</Alert.Title>
          </Alert.Root>
        )}
        {(appErr || serverErr) && (
          <Text role="alert" color="fg.error">
            {appErr} {serverErr}
          </Text>
        )}
      </Stack>
    </Container>
  );
}
